// The frontier exchange's collectives with MPI: records travel as a
// contiguous 64-byte type, so counts and displacements are in records and
// one exchange (or gather on rank 0) moves up to 2^31 - 1 records per rank.
#include <climits>

#include "mpi/frontier_exchange.hpp"
#include "mpi/mpi_comm.hpp"

namespace perftide::dist::detail {

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

// The 64-byte record type, committed for the life of one collective.
class RecordType {
   public:
    RecordType() {
        check_mpi(MPI_Type_contiguous(int(sizeof(FrontierRecord)), MPI_BYTE, &type_), "MPI_Type_contiguous");
        MPI_Type_commit(&type_);
    }
    ~RecordType() { MPI_Type_free(&type_); }
    RecordType(const RecordType&) = delete;
    RecordType& operator=(const RecordType&) = delete;
    MPI_Datatype get() const { return type_; }

   private:
    MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

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
    const RecordType record;
    check_mpi(MPI_Alltoallv(send.data(), scount.data(), sdispl.data(), record.get(), recv.data(), rcount.data(),
                            rdispl.data(), record.get(), comm),
              "MPI_Alltoallv of frontier records");
    return recv;
}

std::vector<FrontierRecord> gather_records(const Session& s, const std::vector<FrontierRecord>& mine) {
    const MPI_Comm comm = communicator(s);
    if (mine.size() > INT_MAX) throw MpiError("frontier gather: more than 2^31 records on one rank");
    const int count = int(mine.size());
    std::vector<int> counts(size_t(s.size()), 0);
    check_mpi(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm), "MPI_Gather of record counts");
    std::vector<int> displ;
    std::vector<FrontierRecord> all;
    if (s.rank() == 0) {
        displ = displacements(counts, "gather on rank 0");
        all.resize(size_t(displ.back()) + size_t(counts.back()));
    }
    const RecordType record;
    check_mpi(MPI_Gatherv(mine.data(), count, record.get(), all.data(), counts.data(), displ.data(), record.get(), 0,
                          comm),
              "MPI_Gatherv of frontier records");
    return all;
}

std::vector<FrontierRecord> allgatherv_records(const Session& s, const std::vector<FrontierRecord>& mine) {
    const MPI_Comm comm = communicator(s);
    if (mine.size() > INT_MAX) throw MpiError("frontier all-gather: more than 2^31 records on one rank");
    const int count = int(mine.size());
    std::vector<int> counts(size_t(s.size()), 0);
    check_mpi(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm), "MPI_Allgather of record counts");
    const std::vector<int> displ = displacements(counts, "all-gather");
    std::vector<FrontierRecord> all(size_t(displ.back()) + size_t(counts.back()));
    const RecordType record;
    check_mpi(MPI_Allgatherv(mine.data(), count, record.get(), all.data(), counts.data(), displ.data(), record.get(),
                             comm),
              "MPI_Allgatherv of frontier records");
    return all;
}

std::vector<uint64_t> allgather_words(const Session& s, const std::vector<uint64_t>& mine) {
    std::vector<uint64_t> all(mine.size() * size_t(s.size()));
    check_mpi(MPI_Allgather(mine.data(), int(mine.size()), MPI_UINT64_T, all.data(), int(mine.size()), MPI_UINT64_T,
                            communicator(s)),
              "MPI_Allgather");
    return all;
}

}  // namespace perftide::dist::detail
