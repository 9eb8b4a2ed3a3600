// 128-bit counts: decimal text at the 2^64 boundaries, checked arithmetic,
// JSON's switch to strings past 2^53, and deep totals merged past 2^64,
// each checked against an independent schoolbook decimal implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "chess/count.hpp"
#include "chess/io/count_text.hpp"
#include "chess/movegen.hpp"
#include "deep/work_units.hpp"
#include "journal/journal.hpp"
#include "output/json.hpp"

using chess::u128;

namespace {

// Decimal strings, digit by digit: independent of u128 and to_string.
std::string dec_add(const std::string& a, const std::string& b) {
    std::string r;
    int carry = 0;
    for (size_t i = 0; i < std::max(a.size(), b.size()) || carry; ++i) {
        const int s = carry + (i < a.size() ? a[a.size() - 1 - i] - '0' : 0) + (i < b.size() ? b[b.size() - 1 - i] - '0' : 0);
        r.push_back(char('0' + s % 10));
        carry = s / 10;
    }
    std::reverse(r.begin(), r.end());
    return r;
}

std::string dec_mul_small(const std::string& a, unsigned m) {
    std::string r = "0";
    for (unsigned i = 0; i < m; ++i) r = dec_add(r, a);
    return r;
}

std::string pow2(int n) {
    std::string r = "1";
    for (int i = 0; i < n; ++i) r = dec_add(r, r);
    return r;
}

}  // namespace

TEST(Counts128, DecimalTextAtThe64BitBoundary) {
    const u128 two64 = u128(1) << 64;
    for (u128 v : {two64 - 1, two64, two64 + 1, ~u128(0), u128(0), u128(1) << 53}) {
        const std::string s = chess::to_string(v);
        const auto back = chess::parse_u128(s);
        ASSERT_TRUE(back.has_value()) << s;
        EXPECT_TRUE(*back == v) << s;
    }
    EXPECT_EQ(chess::to_string(two64), pow2(64));
    EXPECT_EQ(chess::to_string(two64 - 1), "18446744073709551615");
    std::string max = pow2(128);  // ends in 6: minus one needs no borrow
    max.back() -= 1;
    EXPECT_EQ(chess::to_string(~u128(0)), max);
}

TEST(Counts128, ParseRefusesOverflowAndJunk) {
    const std::string max = chess::to_string(~u128(0));  // 2^128 - 1
    EXPECT_TRUE(chess::parse_u128(max).has_value());
    EXPECT_FALSE(chess::parse_u128(pow2(128)).has_value());
    EXPECT_FALSE(chess::parse_u128("1" + max).has_value());
    for (const char* bad : {"", "-1", "12a", " 1", "1e9"}) EXPECT_FALSE(chess::parse_u128(bad).has_value()) << bad;
}

TEST(Counts128, CheckedArithmeticThrowsInsteadOfWrapping) {
    const u128 max = ~u128(0);
    EXPECT_THROW(chess::checked_add(max, 1), chess::CountOverflow);
    EXPECT_THROW(chess::checked_mul(u128(1) << 64, u128(1) << 64), chess::CountOverflow);
    EXPECT_TRUE(chess::checked_mul(u128(1) << 63, u128(1) << 64) == u128(1) << 127);
    EXPECT_THROW(chess::add_product(max - 5, 3, 2), chess::CountOverflow);
    EXPECT_TRUE(chess::add_product(max - 6, 3, 2) == max);
}

TEST(Counts128, ProductOfCountAndMultiplicityPast2To64) {
    // perft(13)-sized counts times multiplicities, summed: perft(14) scale.
    const u128 count = *chess::parse_u128("1981066775000396239");
    std::string expected = "0";
    u128 total = 0;
    for (unsigned mult : {17u, 40u, 1u, 3u}) {
        total = chess::add_product(total, count, mult);
        expected = dec_add(expected, dec_mul_small("1981066775000396239", mult));
    }
    EXPECT_EQ(chess::to_string(total), expected);
    EXPECT_GT(total, u128(1) << 64);
}

TEST(Counts128, JsonCountsPast2To53AreStrings) {
    const u128 two53 = u128(1) << 53;
    EXPECT_EQ(perftide::json::count(two53), pow2(53));
    EXPECT_EQ(perftide::json::count(two53 + 1), std::string("\"") + dec_add(pow2(53), "1") + "\"");
    EXPECT_EQ(perftide::json::count(u128(1) << 100), std::string("\"") + pow2(100) + "\"");
}

TEST(Counts128, UnitMergePast2To64) {
    // Two units, each reached from both root moves, with counts near 2^64.
    perftide::WorkUnits w;
    w.root_moves = {chess::Move(12, 28, chess::DOUBLE_PUSH), chess::Move(11, 27, chess::DOUBLE_PUSH)};
    w.positions.resize(2);
    w.multiplicity = {5, 7};
    w.shares = {{0, 0, 2}, {0, 1, 3}, {1, 0, 4}, {1, 1, 3}};
    const u128 a = (u128(1) << 64) - 3, b = u128(1) << 63;
    const auto t = perftide::merge_unit_counts(w, {a, b});
    const std::string sa = chess::to_string(a), sb = chess::to_string(b);
    EXPECT_EQ(chess::to_string(t.total), dec_add(dec_mul_small(sa, 5), dec_mul_small(sb, 7)));
    EXPECT_EQ(chess::to_string(t.per_root_move[0]), dec_add(dec_mul_small(sa, 2), dec_mul_small(sb, 4)));
    EXPECT_EQ(chess::to_string(t.per_root_move[1]), dec_add(dec_mul_small(sa, 3), dec_mul_small(sb, 3)));
}

TEST(Counts128, JournalRecordsKeepCountsPast2To64) {
    const u128 big = *chess::parse_u128("61885021521585529237");
    perftide::JournalHeader h;
    h.depth = 14;
    h.split = 1;
    h.units = 1;
    h.fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
    const std::string text = perftide::journal_line(perftide::header_payload(h)) +
                             perftide::journal_line(perftide::unit_payload({0, 42, 13, {big}}));
    const auto c = perftide::read_journal(text, h, {42}, "j");
    ASSERT_EQ(c.done.size(), 1u);
    EXPECT_EQ(chess::to_string(c.done.at(0).at(0)), "61885021521585529237");
}
