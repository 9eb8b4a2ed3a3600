#include "journal/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "base/settings.hpp"
#include "chess/io/count_text.hpp"
#include "journal/tally.hpp"

namespace perftide {

namespace {

// Journals written before the program was renamed perftide open with
// OLD_JOURNAL_MAGIC; they resume as they are (their header and units stay
// valid), and every new journal is written with JOURNAL_MAGIC.
constexpr std::string_view JOURNAL_MAGIC = "perftide-journal";
constexpr std::string_view OLD_JOURNAL_MAGIC = "gperft-journal";

bool is_journal_magic(std::string_view word) { return word == JOURNAL_MAGIC || word == OLD_JOURNAL_MAGIC; }

// Whether text opens with a journal header's magic word and a space.
bool opens_with_magic(std::string_view text) {
    const size_t space = text.find(' ');
    return space != std::string_view::npos && is_journal_magic(text.substr(0, space));
}

uint32_t fnv1a(std::string_view s) {
    uint32_t h = 2166136261u;
    for (unsigned char c : s) h = (h ^ c) * 16777619u;
    return h;
}

std::string hex(uint64_t v, int width) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%0*llx", width, static_cast<unsigned long long>(v));
    return buf;
}

bool parse_hex(const std::string& s, uint64_t& v) {
    if (s.empty() || s.size() > 16 || s.find_first_not_of("0123456789abcdef") != std::string::npos) return false;
    v = std::stoull(s, nullptr, 16);
    return true;
}

bool parse_int(const std::string& s, long long max, long long& v) {
    if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    v = std::stoll(s);
    return v <= max;
}

// The payload of a line whose checksum is right; throws otherwise.
std::string checked_payload(std::string_view line, const std::string& where) {
    const size_t star = line.rfind(" *");
    uint64_t sum = 0;
    if (star == std::string_view::npos || line.size() != star + 10 ||
        !parse_hex(std::string(line.substr(star + 2)), sum) || uint32_t(sum) != fnv1a(line.substr(0, star)))
        throw JournalError(where + " is corrupt (checksum does not match)");
    return std::string(line.substr(0, star));
}

void check_header(const std::string& payload, const JournalHeader& expect, const std::string& where) {
    std::istringstream in(payload);
    std::string magic, version, k_depth, depth, k_split, split, k_seed, seed, k_units, units, k_fen;
    in >> magic >> version >> k_depth >> depth >> k_split >> split >> k_seed >> seed >> k_units >> units >> k_fen;
    const bool stats = k_fen == "stats";
    if (stats) in >> k_fen;
    std::string fen;
    std::getline(in >> std::ws, fen);
    if (!is_journal_magic(magic) || k_depth != "depth" || k_split != "split" || k_seed != "seed" ||
        k_units != "units" || k_fen != "fen")
        throw JournalError(where + " is not a perftide journal header");
    auto differs = [&](const char* field, const std::string& found, const std::string& wanted) {
        if (found != wanted)
            throw JournalError(where + ": the journal is for " + field + " " + found + ", this run has " + field + " " +
                               wanted + "; use another journal file");
    };
    differs("format version", version, std::to_string(expect.version));
    auto kind = [](bool s) { return s ? "statistics rows (perft --stats)" : "plain perft counts"; };
    if (stats != expect.stats)
        throw JournalError(where + ": the journal holds " + kind(stats) + ", this run counts " + kind(expect.stats) +
                           "; use another journal file");
    differs("position", fen, expect.fen);
    differs("depth", depth, std::to_string(expect.depth));
    differs("split depth", split, std::to_string(expect.split));
    differs("zobrist seed", seed, hex(expect.seed, 16));
    differs("unit count", units, std::to_string(expect.units));
}

JournalUnit parse_unit(const std::string& payload, const std::string& where) {
    std::istringstream in(payload);
    std::string tag, index, fp, remaining;
    in >> tag >> index >> fp >> remaining;
    JournalUnit u;
    long long i = 0, r = 0;
    if (tag != "unit" || !parse_int(index, UINT32_MAX, i) || !parse_hex(fp, u.fingerprint) ||
        !parse_int(remaining, 255, r))
        throw JournalError(where + " is not a unit record");
    for (std::string count; in >> count;) {
        const auto c = chess::parse_u128(count);
        if (!c) throw JournalError(where + " is not a unit record");
        u.tally.push_back(*c);
    }
    u.index = uint32_t(i);
    u.remaining = int(r);
    return u;
}

void check_unit(const JournalUnit& u, const JournalHeader& expect, const std::vector<uint64_t>& fingerprints,
                const std::string& where) {
    if (u.index >= fingerprints.size())
        throw JournalError(where + ": unit " + std::to_string(u.index) + " does not exist in this run");
    if (u.fingerprint != fingerprints[u.index])
        throw JournalError(where + ": unit " + std::to_string(u.index) + " is a different position in this run");
    if (u.remaining != expect.depth - expect.split)
        throw JournalError(where + ": unit " + std::to_string(u.index) + " was counted to the wrong depth");
    if (u.tally.size() != tally_width(expect.stats, u.remaining))
        throw JournalError(where + ": unit " + std::to_string(u.index) + " has " + std::to_string(u.tally.size()) +
                           " counts, this run's units have " + std::to_string(tally_width(expect.stats, u.remaining)));
}

// Makes a newly created file's directory entry durable too.
void sync_directory(const std::string& path) {
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;  // best effort: the data itself is already synced
    fsync(fd);
    ::close(fd);
}

[[noreturn]] void fail_errno(const std::string& what) { throw JournalError(what + ": " + std::strerror(errno)); }

}  // namespace

std::string journal_line(std::string_view payload) {
    return std::string(payload) + " *" + hex(fnv1a(payload), 8) + "\n";
}

std::string header_payload(const JournalHeader& h) {
    return std::string(JOURNAL_MAGIC) + " " + std::to_string(h.version) + " depth " + std::to_string(h.depth) + " split " +
           std::to_string(h.split) + " seed " + hex(h.seed, 16) + " units " + std::to_string(h.units) +
           (h.stats ? " stats" : "") + " fen " + h.fen;
}

std::string unit_payload(const JournalUnit& u) {
    std::string text =
        "unit " + std::to_string(u.index) + " " + hex(u.fingerprint, 16) + " " + std::to_string(u.remaining);
    for (const chess::u128& c : u.tally) {
        text += ' ';
        text += chess::to_string(c);
    }
    return text;
}

JournalContents read_journal(std::string_view text, const JournalHeader& expect,
                             const std::vector<uint64_t>& fingerprints, const std::string& name) {
    JournalContents r;
    size_t pos = 0;
    for (int line_no = 1;; ++line_no) {
        const size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) break;  // a torn tail, or nothing
        const std::string where = name + " line " + std::to_string(line_no);
        // A first line that is not a journal header at all: another file.
        if (line_no == 1 && !opens_with_magic(text))
            throw JournalError(name +
                               " is not a perftide journal (its first line is not a journal header); refusing to "
                               "read or overwrite it");
        const std::string payload = checked_payload(text.substr(pos, nl - pos), where);
        if (line_no == 1) {
            check_header(payload, expect, where);
            r.has_header = true;
        } else {
            const JournalUnit u = parse_unit(payload, where);
            check_unit(u, expect, fingerprints, where);
            const auto [it, fresh] = r.done.emplace(u.index, u.tally);
            if (!fresh && it->second != u.tally)
                throw JournalError(where + ": unit " + std::to_string(u.index) + " has two different counts");
        }
        pos = nl + 1;
        r.intact_bytes = pos;
    }
    return r;
}

Journal::Journal(const std::string& path, const JournalHeader& expect, const std::vector<uint64_t>& fingerprints)
    : path_(path) {
    if (path.empty()) throw JournalError(named(Setting::Journal) + ": the file name is empty");
    // O_NONBLOCK: a FIFO must not hang the open; only regular files are journals.
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd_ < 0) fail_errno("journal " + path);
    struct stat st;
    if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd_);
        throw JournalError("journal " + path +
                           " is not a regular file (a device, FIFO or directory cannot be a journal)");
    }
    const int flags = fcntl(fd_, F_GETFL);
    if (flags < 0 || fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) fail_errno("journal " + path);
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd_);
        throw JournalError("journal " + path + " is in use by another perftide run");
    }
    std::string text;
    char buf[1 << 16];
    for (ssize_t n; (n = ::read(fd_, buf, sizeof buf)) != 0;) {
        if (n < 0) fail_errno("journal " + path);
        text.append(buf, size_t(n));
    }
    try {
        const JournalContents c = read_journal(text, expect, fingerprints, "journal " + path);
        const std::string header = journal_line(header_payload(expect));
        // Only a cut-short header of this very run may be overwritten: any
        // other file named by mistake is left alone.
        if (!c.has_header && !header.starts_with(text))
            throw JournalError("journal " + path + " is not a perftide journal for this run; refusing to overwrite it");
        done_ = c.done;
        // Cut off a torn tail so the next record starts on a line of its own.
        if (c.intact_bytes != text.size() && ftruncate(fd_, off_t(c.intact_bytes)) != 0) fail_errno("journal " + path);
        if (lseek(fd_, 0, SEEK_END) < 0) fail_errno("journal " + path);
        if (!c.has_header) {
            write_all(header);
            sync_directory(path);
        }
    } catch (...) {
        ::close(fd_);
        throw;
    }
}

Journal::~Journal() {
    if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const std::vector<JournalUnit>& units) {
    std::string text;
    for (const JournalUnit& u : units) text += journal_line(unit_payload(u));
    write_all(text);
    for (const JournalUnit& u : units) done_.emplace(u.index, u.tally);
}

void Journal::write_all(const std::string& text) {
    for (size_t off = 0; off < text.size();) {
        const ssize_t n = ::write(fd_, text.data() + off, text.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail_errno("journal " + path_);
        off += size_t(n);
    }
    if (fsync(fd_) != 0) fail_errno("journal " + path_);
}

}  // namespace perftide
