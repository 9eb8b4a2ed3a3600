// The settings a message of the library may name, and each front end's words
// for them. The library never writes a flag: it says `named(Setting::Hash,
// "64")` inside its text, and the front end that shows the text words it in
// its own vocabulary with in_words: the command line's `--hash 64`, UCI's
// `Hash 64`, Python's `hash_mib=64`. A remedy (`advice`) names only the
// settings the reader's front end has, and vanishes where it has none.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace perftide {

enum class Setting : uint8_t {
    Depth,
    Split,
    Hash,
    HashForce,
    HostHash,
    Memory,
    WorkDir,
    Passes,
    Journal,
    Device,
    DeviceMemory,
    Backend,
    Threads,
    Count
};

enum class Vocabulary : uint8_t { Cli, Uci, Python };

namespace settings_detail {

struct Words {
    const char* cli;
    const char* uci;     // "" where UCI has no such option
    const char* python;  // "" where the Python module has no such argument
    const char* plain;   // what the setting is, for a front end without it
    bool text;           // its value is a word (Python quotes it)
};

inline const Words& words_of(Setting s) {
    static constexpr Words table[] = {
        {"--depth", "depth", "depth", "the depth", false},
        {"--split", "", "", "the split depth", false},
        {"--hash", "Hash", "hash_mib", "the table size", false},
        {"--hash-force", "", "", "a forced table size", false},
        {"--host-hash", "", "", "the host table size", false},
        {"--memory", "", "memory_mib", "the memory budget", false},
        {"--work-dir", "", "", "the work directory", true},
        {"--passes", "", "", "the pass count", false},
        {"--journal", "", "", "the journal", true},
        {"--device", "", "", "the device", false},
        {"--device-memory", "", "", "the device memory cap", false},
        {"--backend", "Backend", "backend", "the backend", true},
        {"--threads", "Threads", "threads", "the thread count", false},
    };
    static_assert(sizeof table / sizeof table[0] == size_t(Setting::Count));
    return table[size_t(s)];
}

// Markers inside a library's text (never shown: what() words them for the
// command line). US opens and closes one; RS ends an advice's lead.
constexpr char US = '\x1f', RS = '\x1e';
constexpr char NAMED = 'N', ADVICE = 'A';

inline const char* name_of(Setting s, Vocabulary v) {
    const Words& w = words_of(s);
    return v == Vocabulary::Cli ? w.cli : v == Vocabulary::Uci ? w.uci : w.python;
}

inline std::string word(Setting s, std::string_view value, Vocabulary v) {
    const Words& w = words_of(s);
    const std::string_view name = name_of(s, v);
    std::string out(name.empty() ? std::string_view(w.plain) : name);
    if (value.empty()) return out;
    const bool quoted = v == Vocabulary::Python && !name.empty() && w.text;
    out += v == Vocabulary::Python && !name.empty() ? "=" : " ";
    if (quoted) out += '\'';
    out += value;
    if (quoted) out += '\'';
    return out;
}

}  // namespace settings_detail

// The setting's own name in a front end's words ("" where it has none).
inline std::string_view name_in(Setting s, Vocabulary v) { return settings_detail::name_of(s, v); }

// A setting, with the value asked for it if any, as the reader's front end
// names it.
inline std::string named(Setting s, std::string_view value = {}) {
    using namespace settings_detail;
    std::string out(1, US);
    out += NAMED;
    out += char('a' + int(s));
    out += value;
    out += US;
    return out;
}

// "lead A, B or C tail" over the settings the reader's front end has, or
// nothing where it has none of them: advice("; give a smaller ", {Split, Hash}).
inline std::string advice(std::string_view lead, std::initializer_list<Setting> remedies, std::string_view tail = {}) {
    using namespace settings_detail;
    std::string out(1, US);
    out += ADVICE;
    out += lead;
    out += RS;
    for (Setting s : remedies) out += char('a' + int(s));
    out += RS;
    out += tail;
    out += US;
    return out;
}

// `text` with its settings in the words of `v`.
inline std::string in_words(std::string_view text, Vocabulary v) {
    using namespace settings_detail;
    std::string out;
    for (size_t at = 0; at < text.size();) {
        const size_t open = text.find(US, at);
        const size_t close = open == std::string_view::npos ? open : text.find(US, open + 1);
        if (close == std::string_view::npos || close < open + 3) {
            out += text.substr(at);
            break;
        }
        out += text.substr(at, open - at);
        const std::string_view body = text.substr(open + 1, close - open - 1);
        const size_t split = body.find(RS), end = split == body.npos ? split : body.find(RS, split + 1);
        auto is_setting = [](char c) { return c >= 'a' && c < char('a' + int(Setting::Count)); };
        if (body[0] == NAMED && is_setting(body[1])) {
            out += word(Setting(body[1] - 'a'), body.substr(2), v);
        } else if (body[0] != ADVICE || end == body.npos ||
                   !std::all_of(body.begin() + split + 1, body.begin() + end, is_setting)) {
            out += text.substr(open, close + 1 - open);  // not a marker of ours
        } else {
            const std::string_view remedies = body.substr(split + 1, end - split - 1);
            std::string names;
            int n = 0, total = 0;
            for (char c : remedies) total += *name_of(Setting(c - 'a'), v) != 0;
            for (char c : remedies) {
                const char* name = name_of(Setting(c - 'a'), v);
                if (!*name) continue;
                ++n;
                names += (n == 1 ? "" : n == total ? " or " : ", ") + std::string(name);
            }
            if (total > 0) out += std::string(body.substr(1, split - 1)) + names + std::string(body.substr(end + 1));
        }
        at = close + 1;
    }
    return out;
}

}  // namespace perftide
