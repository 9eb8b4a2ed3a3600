// The frontier exchange's collectives with MPI: records travel as a
// contiguous 64-byte type, so counts and displacements are in records and
// one exchange moves up to 2^31 - 1 records per rank.
#include <climits>

#include "dist/frontier_exchange.hpp"
#include "dist/mpi_comm.hpp"

namespace gperft::dist::detail {

namespace {

std::vector<int> displacements(const std::vector<int>& counts, const char* what) {
    std::vector<int> d(counts.size(), 0);
    long long sum = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
        d[r] = int(sum);
        sum += counts[r];
        if (sum > INT_MAX) throw MpiError(std::string("frontier exchange: more than 2^31 records to ") + what);
    }
    return d;
}

}  // namespace

std::vector<FrontierRecord> alltoallv_records(const Session& s, const std::vector<FrontierRecord>& send,
                                              const std::vector<uint64_t>& counts) {
    const MPI_Comm comm = communicator(s);
    std::vector<int> scount(counts.size()), rcount(counts.size());
    for (size_t r = 0; r < counts.size(); ++r) {
        if (counts[r] > INT_MAX) throw MpiError("frontier exchange: more than 2^31 records for one rank");
        scount[r] = int(counts[r]);
    }
    check_mpi(MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, comm), "MPI_Alltoall of record counts");
    const std::vector<int> sdispl = displacements(scount, "send"), rdispl = displacements(rcount, "receive");
    std::vector<FrontierRecord> recv(size_t(rdispl.back()) + size_t(rcount.back()));
    MPI_Datatype record;
    check_mpi(MPI_Type_contiguous(int(sizeof(FrontierRecord)), MPI_BYTE, &record), "MPI_Type_contiguous");
    MPI_Type_commit(&record);
    const int rc = MPI_Alltoallv(send.data(), scount.data(), sdispl.data(), record, recv.data(), rcount.data(),
                                 rdispl.data(), record, comm);
    MPI_Type_free(&record);
    check_mpi(rc, "MPI_Alltoallv of frontier records");
    return recv;
}

std::vector<uint64_t> allgather_words(const Session& s, const std::vector<uint64_t>& mine) {
    std::vector<uint64_t> all(mine.size() * size_t(s.size()));
    check_mpi(MPI_Allgather(mine.data(), int(mine.size()), MPI_UINT64_T, all.data(), int(mine.size()), MPI_UINT64_T,
                            communicator(s)),
              "MPI_Allgather");
    return all;
}

}  // namespace gperft::dist::detail
