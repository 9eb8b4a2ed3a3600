// Shared by the tests that start perftide under mpirun: the fixture that
// skips (visibly) without MPI in the build or without mpirun, and runs the
// binary on PERFTIDE_MPI_TEST_RANKS ranks with the CMake-chosen flags.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/run_process.hpp"

constexpr int RANKS = PERFTIDE_MPI_TEST_RANKS;

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

class MpiCli : public ::testing::Test {
   protected:
    void SetUp() override {
        if (!PERFTIDE_HAVE_MPI) GTEST_SKIP() << "perftide was built without MPI: the MPI tests do not apply";
        const std::string mpirun = PERFTIDE_MPIEXEC;
        if (mpirun.empty() || !std::filesystem::exists(mpirun))
            GTEST_SKIP() << "mpirun not found (install openmpi-bin): the MPI tests are skipped";
        // Containers often run as root; Open MPI refuses that unless told.
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    }

    // `env` (shell assignments) applies to every rank: mpirun passes its
    // environment on to the ranks it starts on this machine.
    static ProcessResult mpirun(const std::string& args, const std::string& env = "") {
        return run_shell(env + " " + std::string(PERFTIDE_MPIEXEC) + " " + PERFTIDE_MPIEXEC_FLAGS + " -np " +
                         std::to_string(RANKS) + " " + PERFTIDE_BINARY + " " + args);
    }

    // For jobs where a rank dies: Open MPI 4.1's mpirun has been seen to
    // hang in its own PMIx teardown after every rank had exited (rarely, on
    // a loaded machine); the time limit ends such an mpirun. Everything the
    // tests check has been written by then.
    static ProcessResult mpirun_with_a_death(const std::string& args, const std::string& env) {
        return run_shell(env + " timeout -s KILL 60 " + std::string(PERFTIDE_MPIEXEC) + " " + PERFTIDE_MPIEXEC_FLAGS +
                         " -np " + std::to_string(RANKS) + " " + PERFTIDE_BINARY + " " + args);
    }
};
