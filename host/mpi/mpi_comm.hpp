// The MPI handles behind a Session, for the sources built only with MPI:
// the job's own communicator (a duplicate of MPI_COMM_WORLD, so protocol
// messages never meet another library's) and error checking of MPI calls.
#pragma once

#include <mpi.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "mpi/session.hpp"
#include "mpi/wire.hpp"

namespace perftide::dist {

struct Session::Impl {
    MPI_Comm comm = MPI_COMM_NULL;
};

inline MPI_Comm communicator(const Session& s) { return s.impl().comm; }

// Throws MpiError naming `what` and MPI's description of `rc`.
void check_mpi(int rc, const std::string& what);

// Point-to-point messages of 64-bit words on the session's communicator.
struct Message {
    int source = 0;
    int tag = 0;
    Words words;
};
void send_words(const Session& s, int dest, Tag tag, const Words& words);
// A message from `source` (or MPI_ANY_SOURCE) if one has arrived.
std::optional<Message> poll_message(const Session& s, int source);
// Waits for a message from `source`. It polls and sleeps rather than
// blocking in MPI_Recv, which spins a core in Open MPI: a waiting rank
// leaves the CPU to the ranks that count.
Message wait_message(const Session& s, int source);

}  // namespace perftide::dist
