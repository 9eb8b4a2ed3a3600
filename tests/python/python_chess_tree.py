"""The python-chess side of the Python tests: perft, divide and random
positions, computed with python-chess's own move generator."""
import chess


def perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for m in board.legal_moves:
        board.push(m)
        total += perft(board, depth - 1)
        board.pop()
    return total


def divide(board, depth):
    """{UCI move: perft(depth - 1) below it}."""
    out = {}
    for m in board.legal_moves:
        board.push(m)
        out[m.uci()] = perft(board, depth - 1)
        board.pop()
    return out


def random_boards(count, rng, max_plies, chess960=lambda i: False):
    """Boards reached by random games of 0..max_plies plies (from a random
    Chess960 array where chess960(i)), stopping at mate or stalemate."""
    boards = []
    for i in range(count):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960(i) else chess.Board()
        for _ in range(rng.randrange(max_plies + 1)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards
