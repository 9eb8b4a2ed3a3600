// perftide suite FILE: check every position of a perft suite at every listed
// depth (within --max-depth / --max-nodes), print a pass/fail table, and exit
// 1 naming the first failure. Entries whose FEN is refused (impossible
// castling rights, say) are listed as "refused" with the reason and make the
// exit status 2 when nothing failed. Depths beyond --max-depth/--max-nodes
// are named as skipped in each line and counted in the summary: an entry
// with some skipped reads "partial", never "pass". Chess960 rights (X-FEN,
// Shredder-FEN) are read as such.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "chess/perft.hpp"
#include "commands/cli.hpp"
#include "deep/deep_perft.hpp"
#include "inputs/suite.hpp"
#include "output/json.hpp"
#include "output/progress.hpp"
#include "output/words.hpp"

namespace perftide::cli {
namespace {

struct SuiteOptions {
    std::string file;
    int max_depth = MAX_PERFT_DEPTH;
    double max_nodes = 0;  // 0: no limit
    int threads = 0;
    BackendChoice backend = BackendChoice::Auto;
    bool chess960 = false;
    bool json = false;
};

std::string text_row(const std::string& verdict, const std::string& id, const std::string& fen,
                     const std::string& detail) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-7s %-12s ", verdict.c_str(), id.c_str());
    std::string fen_col = fen;
    if (fen_col.size() < 72) fen_col.resize(72, ' ');
    return buf + fen_col + " " + detail + "\n";
}

std::string depth_list(const std::vector<int>& depths) {
    std::string s;
    for (int d : depths) {
        if (!s.empty()) s += ',';
        s += std::to_string(d);
    }
    return s;
}

// What one entry came to: Partial, every depth checked matched but some were
// skipped (--max-depth, --max-nodes); Skip, none was checked; Refused, the
// position is not one (a bad FEN). Pending until the entry is decided.
enum class Verdict { Pending, Pass, Partial, Skip, Fail, Refused };

// As the text table and the JSON print it.
const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::Pass: return "pass";
        case Verdict::Partial: return "partial";
        case Verdict::Skip: return "skip";
        case Verdict::Fail: return "FAIL";
        case Verdict::Refused: return "refused";
        case Verdict::Pending: break;
    }
    return "pending";
}

struct EntryResult {
    Verdict verdict = Verdict::Pending;
    std::string detail;
    std::vector<int> checked, skipped;
    chess::u128 nodes = 0;  // counted for the depths checked
};

// A lower bound on perft(root, depth) that costs one perft(LEAF): the
// subtree at the end of the first line of moves, LEAF plies from the leaves
// (perft is a sum over subtrees, so it is at least any one of them); none
// when that line ends in mate or stalemate first. A count expected below it
// is wrong without counting the whole tree: a typo like ";D30 5" fails at
// once instead of running for ever.
constexpr int BOUND_LEAF = 5;
std::optional<chess::u128> subtree_lower_bound(chess::Position p, int depth) {
    const chess::Attacks at = chess::host_attacks();
    for (int ply = 0; ply < depth - BOUND_LEAF; ++ply) {
        chess::MoveList list;
        chess::generate_moves(p, at, list);
        if (list.size == 0) return std::nullopt;
        p = chess::apply_move(p, list.moves[0]);
    }
    return chess::u128(chess::perft(p, at, BOUND_LEAF));
}

// From this depth a wrong count is first bounded (subtree_lower_bound).
constexpr int DEEP_FROM = 7;

// Each depth counted as `perft` counts it (count_perft: the deep engine from
// the backend's threshold), so that a deep entry is refused up front when it
// cannot fit.
EntryResult check_entry(const SuiteEntry& e, const chess::Position& root, const SuiteOptions& o,
                        const Backend& backend) {
    EntryResult r;
    bool by_depth = false, by_nodes = false;  // why depths were skipped
    for (const auto& [depth, expected] : e.expected) {
        const bool too_deep = depth > o.max_depth, too_many = o.max_nodes > 0 && double(expected) > o.max_nodes;
        if (too_deep || too_many) {
            r.skipped.push_back(depth);
            by_depth |= too_deep, by_nodes |= too_many && !too_deep;
            continue;
        }
        if (r.verdict != Verdict::Pending) continue;  // after a failure, the rest are neither checked nor skipped
        if (depth >= DEEP_FROM) {
            const auto bound = subtree_lower_bound(root, depth);
            if (bound && *bound > expected) {
                r.checked.push_back(depth);
                r.verdict = Verdict::Fail;
                r.detail = "depth " + std::to_string(depth) + ": expected " + chess::to_string(expected) +
                           ", but one subtree " + std::to_string(BOUND_LEAF) + " plies deep alone has " +
                           chess::to_string(*bound) + " move paths (not counted further)";
                continue;
            }
        }
        const chess::u128 n = count_perft(backend, root, depth, {}).nodes;
        r.checked.push_back(depth);
        r.nodes += n;
        if (n != expected) {
            r.verdict = Verdict::Fail;
            r.detail = "depth " + std::to_string(depth) + ": expected " + chess::to_string(expected) + ", got " +
                       chess::to_string(n);
        }
    }
    if (r.verdict == Verdict::Pending)
        r.verdict = r.checked.empty() ? Verdict::Skip : r.skipped.empty() ? Verdict::Pass : Verdict::Partial;
    if (r.verdict != Verdict::Fail && !r.skipped.empty()) {
        const std::string why = by_depth && by_nodes ? "--max-depth, --max-nodes" : by_depth ? "--max-depth" : "--max-nodes";
        r.detail = (r.checked.empty() ? "" : "checked depth " + depth_list(r.checked) + "; ") + "skipped depth " +
                   depth_list(r.skipped) + " (" + why + ")";
    }
    return r;
}

// Where a failure is: the line always (ids need not be unique), the id when
// the file gave one.
std::string failure_text(const SuiteEntry& e, const std::string& detail) {
    const std::string line = "line " + std::to_string(e.line);
    return line + (e.id == line ? "" : " (id " + e.id + ")") + " (" + e.fen + ") at " + detail;
}

int run_suite_command(const SuiteOptions& o) {
    const std::vector<SuiteEntry> entries = read_suite_file(o.file);
    const std::unique_ptr<Backend> backend = open_backend(o.backend, o.threads);
    int passed = 0, partial = 0, failed = 0, skipped = 0, refused = 0;
    size_t depths_checked = 0, depths_skipped = 0;
    std::string first_failure;
    Progress bar(entries.size(), {.what = "positions"});  // cleared for each row printed
    for (const SuiteEntry& e : entries) {
        chess::Position root;
        EntryResult r;
        try {
            root = position_from(e.fen, "", o.chess960);
            r = check_entry(e, root, o, *backend);
        } catch (const chess::FenError& err) {
            r.verdict = Verdict::Refused, r.detail = err.what();
        }
        bar.finish();
        if (o.json) {
            json::Object row;
            row.str("id", e.id).integer("line", e.line).str("fen", e.fen).str("verdict", to_string(r.verdict));
            if (!e.operations.empty()) row.str("operations", e.operations);
            row.raw("checked", json::Array::integers(r.checked)).raw("skipped", json::Array::integers(r.skipped)).str("detail", r.detail);
            std::cout << row.text() << "\n";
        } else {
            std::cout << text_row(to_string(r.verdict), e.id, e.fen, r.detail);
        }
        depths_checked += r.checked.size(), depths_skipped += r.skipped.size();
        if (r.verdict == Verdict::Fail && failed == 0) first_failure = failure_text(e, r.detail);
        failed += r.verdict == Verdict::Fail, refused += r.verdict == Verdict::Refused;
        skipped += r.verdict == Verdict::Skip, passed += r.verdict == Verdict::Pass;
        partial += r.verdict == Verdict::Partial;
        std::cout.flush();
        bar.advance(1, r.nodes);
    }
    bar.finish();
    if (o.json) {
        json::Object sum;
        sum.integer("positions", entries.size()).integer("passed", passed);
        sum.integer("partial", partial).integer("failed", failed);
        sum.integer("skipped", skipped).integer("refused", refused);
        sum.integer("depths_checked", depths_checked).integer("depths_skipped", depths_skipped);
        sum.str("first_failure", first_failure);
        json::Object top;
        top.raw("summary", sum.text());
        std::cout << top.text() << std::endl;
    } else {
        std::printf("\n%d passed, %d partial (some depths skipped), %d failed, %d skipped, %d refused, %s; "
                    "%s, %zu skipped\n",
                    passed, partial, failed, skipped, refused, counted(entries.size(), "position", "positions").c_str(),
                    counted(depths_checked, "depth checked", "depths checked").c_str(), depths_skipped);
        if (failed) std::printf("first failure: %s\n", first_failure.c_str());
    }
    if (failed) return EXIT_MISMATCH;
    if (refused) return EXIT_BAD_INPUT;
    // A suite that checked nothing proves nothing: a CI job must not pass on
    // an empty file or on limits that skip every depth.
    if (entries.empty()) {
        error("suite file '" + o.file + "' holds no entries (only blank or '#' lines)");
        return EXIT_BAD_INPUT;
    }
    if (depths_checked == 0) {
        error("nothing was checked: every depth of '" + o.file + "' was skipped by --max-depth or --max-nodes");
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

}  // namespace

Command setup_suite(CLI::App& app) {
    auto o = std::make_shared<SuiteOptions>();
    CLI::App* sub = app.add_subcommand("suite", "Check a perft suite file (EPD ';D1 20' or python-chess format)");
    sub->add_option("file", o->file, "Suite file")->required()->check(CLI::ExistingFile);
    sub->add_option("--max-depth", o->max_depth, "Skip depths above this")->check(CLI::Range(0, MAX_PERFT_DEPTH));
    sub->add_option("--max-nodes", o->max_nodes, "Skip depths whose expected count is above this")
        ->check(positive_count_validator());
    add_threads_option(*sub, o->threads);
    add_backend_option(*sub, o->backend);
    add_progress_option(*sub);
    add_chess960_flag(*sub, o->chess960);
    sub->add_flag("--json", o->json,
                  "JSON Lines: one object per position (verdict, depths checked and skipped), then a summary");
    return {sub, [o] { return run_suite_command(*o); }};
}

}  // namespace perftide::cli
