// What build this is, for --version and bug reports: the version, the
// commit (and whether the tree had uncommitted changes), the compilers and
// the features compiled in. Filled from the build's own definitions.
#pragma once

#include <string>
#include <vector>

namespace perftide {

struct BuildInfo {
    std::string version;
    std::string commit;  // "unknown" outside a git checkout
    bool dirty = false;  // built from a tree with uncommitted changes
    std::string compiler;
    std::string cuda_compiler;                    // empty without CUDA
    std::vector<std::string> cuda_architectures;  // as CMake was given them
    bool mpi = false;                             // perftide-mpi was built beside perftide
    bool bmi2 = false;                            // host code built for a BMI2 target
    bool pext = false;                            // its slider lookups use pext
    bool zlib = false, zstd = false;              // compressed PGN input
};

BuildInfo build_info();

// "perftide 0.1.0", then a line each for the commit, compilers and features.
std::string version_text(const BuildInfo& b);
std::string version_json(const BuildInfo& b);

}  // namespace perftide
