#include "output/build_info.hpp"

#include <algorithm>

#include "build_commit.hpp"  // made at build time: PERFTIDE_COMMIT, PERFTIDE_DIRTY
#include "chess/attacks.hpp"
#include "output/json.hpp"

namespace perftide {

namespace {

std::vector<std::string> split_list(std::string list) {
    std::vector<std::string> items;
    for (size_t at = 0; at < list.size();) {
        const size_t end = std::min(list.find_first_of("; ", at), list.size());
        if (end > at) items.push_back(list.substr(at, end - at));
        at = end + 1;
    }
    return items;
}

std::string yes_no(bool on) { return on ? "yes" : "no"; }

}  // namespace

BuildInfo build_info() {
    BuildInfo b;
    b.version = PERFTIDE_VERSION;
    b.commit = PERFTIDE_COMMIT;
    b.dirty = PERFTIDE_DIRTY;
    b.compiler = std::string("g++ ") + __VERSION__;
#ifdef __clang__
    b.compiler = std::string("clang ") + __clang_version__;
#endif
    b.cuda_compiler = PERFTIDE_CUDA_COMPILER;
    b.cuda_architectures = split_list(PERFTIDE_CUDA_ARCHITECTURES);
    b.mpi = PERFTIDE_BUILD_MPI;
#ifdef __BMI2__
    b.bmi2 = true;
#endif
    b.pext = CHESS_PEXT;
    b.zlib = PERFTIDE_BUILD_ZLIB;
    b.zstd = PERFTIDE_BUILD_ZSTD;
    return b;
}

std::string version_text(const BuildInfo& b) {
    std::string cuda = "no";
    if (!b.cuda_compiler.empty()) {
        cuda = b.cuda_compiler + ", architectures";
        for (const std::string& a : b.cuda_architectures) cuda += " " + a;
    }
    return "perftide " + b.version + "\n" + "commit: " + b.commit + (b.dirty ? " (dirty)" : "") + "\n" +
           "compiler: " + b.compiler + "\n" + "cuda: " + cuda + "\n" + "mpi: " + yes_no(b.mpi) + "\n" +
           "bmi2: " + yes_no(b.bmi2) + ", pext slider lookups: " + yes_no(b.pext) + "\n" +
           "compressed pgn: zlib " + yes_no(b.zlib) + ", zstd " + yes_no(b.zstd) + "\n";
}

std::string version_json(const BuildInfo& b) {
    json::Object cuda;
    cuda.boolean("enabled", !b.cuda_compiler.empty());
    if (!b.cuda_compiler.empty()) cuda.str("compiler", b.cuda_compiler).raw("architectures", json::strings(b.cuda_architectures));
    json::Object o;
    o.str("name", "perftide")
        .str("version", b.version)
        .str("commit", b.commit)
        .boolean("dirty", b.dirty)
        .str("compiler", b.compiler)
        .raw("cuda", cuda.text())
        .boolean("mpi", b.mpi)
        .boolean("bmi2", b.bmi2)
        .boolean("pext", b.pext)
        .boolean("zlib", b.zlib)
        .boolean("zstd", b.zstd);
    return o.text() + "\n";
}

}  // namespace perftide
