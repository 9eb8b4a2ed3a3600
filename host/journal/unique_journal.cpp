#include "journal/unique_journal.hpp"

#include <sys/stat.h>

#include <fstream>
#include <sstream>


namespace perftide {

namespace {

const int FIELDS = int(frontier::count_fields(frontier::PlyCounts{}).size());

JournalHeader header_of(const std::string& position, int depth, int passes) {
    JournalHeader h;
    h.depth = depth;
    h.split = depth - 1;
    h.seed = frontier::PASS_SEED;  // its keys choose each child's pass
    h.units = uint64_t(passes) * uint64_t(FIELDS);
    h.fen = position;
    return h;
}

// A unit's fingerprint: "unique" and its index (pass and counter; the
// header names the run).
uint64_t fingerprint(size_t unit) { return 0x756E697175650000ULL | unit; }

std::vector<uint64_t> fingerprints(int passes) {
    std::vector<uint64_t> f(size_t(passes) * size_t(FIELDS));
    for (size_t i = 0; i < f.size(); ++i) f[i] = fingerprint(i);
    return f;
}

// The pass count in an existing journal's header, or 0 when the file is
// absent or empty (a header that cannot be read gives 1: the journal's own
// checks then say what is wrong with it).
int passes_in(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || (S_ISREG(st.st_mode) && st.st_size == 0)) return 0;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    std::istringstream words(line);
    for (std::string w; words >> w;)
        if (w == "units" && words >> w) {
            try {
                const unsigned long long units = std::stoull(w);
                if (units > 0 && units % unsigned(FIELDS) == 0 && units / unsigned(FIELDS) <= 1 << 16)
                    return int(units / unsigned(FIELDS));
            } catch (const std::exception&) {
            }
            break;
        }
    return 1;
}

}  // namespace

UniqueJournal::UniqueJournal(std::string path, std::string fen, bool chess960, int depth)
    : path_(std::move(path)), position_(std::string("unique ") + (chess960 ? "chess960 " : "") + fen), depth_(depth) {
    if (const int p = passes_in(path_)) open(p);
}

void UniqueJournal::open(int passes) {
    journal_ = std::make_unique<Journal>(path_, header_of(position_, depth_, passes), fingerprints(passes));
    passes_ = passes;
    std::map<int, std::vector<chess::u128>> fields;
    for (const auto& [unit, value] : journal_->done()) {
        auto& f = fields[int(unit) / FIELDS];
        f.resize(size_t(FIELDS));
        f[unit % unsigned(FIELDS)] = value.at(0);
    }
    for (const auto& [pass, f] : fields) {
        int present = 0;
        for (int k = 0; k < FIELDS; ++k) present += journal_->done().count(uint32_t(pass * FIELDS + k));
        if (present == FIELDS) done_[pass] = frontier::from_fields(depth_, passes, f);
    }
}

void UniqueJournal::start(int passes) {
    if (!journal_) open(passes);
    if (passes != passes_)
        throw JournalError("journal " + path_ + " holds " + std::to_string(passes_) + " passes, the run asked for " +
                           std::to_string(passes));
}

const frontier::PlyCounts* UniqueJournal::finished(int pass) const {
    const auto it = done_.find(pass);
    return it == done_.end() ? nullptr : &it->second;
}

void UniqueJournal::record(int pass, const frontier::PlyCounts& counts) {
    const std::vector<chess::u128> f = frontier::count_fields(counts);
    std::vector<JournalUnit> units;
    for (int k = 0; k < FIELDS; ++k) {
        JournalUnit u;
        u.index = uint32_t(pass * FIELDS + k);
        u.fingerprint = fingerprint(u.index);
        u.remaining = 1;
        u.tally = {f[size_t(k)]};
        units.push_back(u);
    }
    journal_->append(units);
    done_[pass] = frontier::from_fields(depth_, passes_, f);
}

}  // namespace perftide
