// Scharnagl's numbering: see chess960.hpp.
#include "chess/io/chess960.hpp"

#include <cctype>
#include <stdexcept>

namespace chess {

std::string chess960_back_rank(int number) {
    if (number < 0 || number > 959)
        throw std::out_of_range("Chess960 start position " + std::to_string(number) + " is not in 0-959");
    std::string rank(8, ' ');
    // The n-th empty file (0-based) from the a-file.
    const auto place = [&rank](int n, char piece) {
        for (int f = 0; f < 8; ++f)
            if (rank[f] == ' ' && n-- == 0) return void(rank[f] = piece);
    };
    int n = number;
    rank[2 * (n % 4) + 1] = 'B';  // the light-squared bishop: b, d, f or h
    n /= 4;
    rank[2 * (n % 4)] = 'B';  // the dark-squared bishop: a, c, e or g
    n /= 4;
    place(n % 6, 'Q');
    n /= 6;
    // The knights on two of the five files left, in this order for n = 0..9.
    static constexpr int KNIGHTS[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                           {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    place(KNIGHTS[n][1], 'N');  // the later one first, so the earlier index still counts from the a-file
    place(KNIGHTS[n][0], 'N');
    place(0, 'R');  // rook, king, rook on the three files left
    place(0, 'K');
    place(0, 'R');
    return rank;
}

std::string chess960_fen(int white, int black) {
    const std::string w = chess960_back_rank(white), b = chess960_back_rank(black);
    std::string lower;
    for (char c : b) lower += char(std::tolower(static_cast<unsigned char>(c)));
    // Shredder-FEN rights: each side's rook files, the h-side one first.
    const auto rights = [](const std::string& rank, bool upper) {
        std::string r;
        for (int f = 7; f >= 0; --f)
            if (rank[f] == 'R') r += char((upper ? 'A' : 'a') + f);
        return r;
    };
    return lower + "/pppppppp/8/8/8/8/PPPPPPPP/" + w + " w " + rights(w, true) + rights(b, false) + " - 0 1";
}

}  // namespace chess
