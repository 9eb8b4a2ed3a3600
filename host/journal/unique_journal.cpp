#include "journal/unique_journal.hpp"

#include <sys/stat.h>

#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <utility>

#include "base/settings.hpp"


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

// The first line of an existing journal, or "" when the file is absent or
// empty.
std::string header_line(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || (S_ISREG(st.st_mode) && st.st_size == 0)) return "";
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line.empty() ? " " : line;
}

// The pass count in a journal's header line, 0 without one (a header that
// cannot be read gives 1: the journal's own checks then say what is wrong
// with it).
int passes_in(const std::string& line) {
    if (line.empty()) return 0;
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

// The rank and rank count a unique journal's header names ({0, 1}: one
// process's), or nullopt for a header that is no unique journal's.
std::optional<std::pair<int, int>> ranks_in(const std::string& line) {
    static const std::regex unique(" fen unique (chess960 )?(rank ([0-9]+) of ([0-9]+) )?");
    std::smatch m;
    if (!std::regex_search(line, m, unique)) return std::nullopt;
    if (!m[2].matched) return std::pair{0, 1};
    return std::pair{std::stoi(m[3].str()), std::stoi(m[4].str())};
}

std::string ranks_text(int ranks) { return ranks == 1 ? "1 process" : std::to_string(ranks) + " ranks"; }

}  // namespace

void UniqueJournal::check_ranks(const std::string& line) const {
    const auto found = ranks_in(line);
    if (!found || *found == std::pair{rank_, ranks_}) return;
    const auto [rank, ranks] = *found;
    if (ranks != ranks_)
        throw JournalError("journal " + path_ + " is a unique journal written by " + ranks_text(ranks) +
                           (ranks_ > 1 ? ", this run has " + std::to_string(ranks_) : ", this run is one process") +
                           (ranks > 1 ? ": run it with " + std::to_string(ranks) + " ranks, or use another journal file"
                                      : ": run it as one process, or use another journal file"));
    throw JournalError("journal " + path_ + " holds rank " + std::to_string(rank) + "'s passes, this is rank " +
                       std::to_string(rank_) + ": give each rank FILE.rank<R> (" + named(Setting::Journal, "FILE") + ")");
}

UniqueJournal::UniqueJournal(std::string path, const std::string& fen, bool chess960, int depth, int rank, int ranks)
    : path_(std::move(path)),
      position_(std::string("unique ") + (chess960 ? "chess960 " : "") +
                (ranks > 1 ? "rank " + std::to_string(rank) + " of " + std::to_string(ranks) + " " : "") + fen),
      depth_(depth),
      rank_(rank),
      ranks_(ranks) {
    const std::string header = header_line(path_);
    check_ranks(header);
    if (const int p = passes_in(header)) open(p);
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
