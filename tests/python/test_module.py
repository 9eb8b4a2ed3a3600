"""pytest suite of the Python module `perftide` (pip install .), cross-checked
with python-chess (PyPI `chess`) on positions of random games, Chess960
included. PERFTIDE_BINARY, when set, names the command-line program whose
error messages the module's must repeat."""
import os
import random
import signal
import subprocess
import sys
import threading
import time

import chess
import pytest

import perftide
from python_chess_tree import divide as chess_divide, perft as chess_perft, random_boards

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def random_positions(count, seed, chess960=False):
    """FENs of random games of 0..60 plies that still have a legal move."""
    boards = random_boards(4 * count, random.Random(seed), 60, chess960=lambda i: chess960)
    return [b.fen(shredder=chess960) for b in boards if any(b.legal_moves)][:count]


def board_of(fen, chess960=False):
    return chess.Board(fen, chess960=chess960)


@pytest.mark.parametrize("chess960", [False, True])
def test_perft_and_divide_agree_with_python_chess(chess960):
    for i, fen in enumerate(random_positions(12, seed=7 + chess960, chess960=chess960)):
        depth = 1 + i % 3
        board = board_of(fen, chess960)
        expected = chess_divide(board, depth)
        divide = perftide.perft(fen, depth, divide=True, chess960=chess960)
        assert divide == expected, fen
        assert list(divide) == sorted(divide), "divide is sorted by move text"
        total = perftide.perft(fen, depth, chess960=chess960)
        assert type(total) is int and total == sum(expected.values()), fen


def test_perft_takes_moves_and_startpos():
    board = chess.Board()
    for uci in ["e2e4", "e7e5", "g1f3"]:
        board.push_uci(uci)
    assert perftide.perft("startpos", 3, moves="e2e4 e7e5 g1f3") == chess_perft(board, 3)
    assert perftide.perft(KIWIPETE, 3, threads=1) == 97862  # the published perft(3)


def leaf_stats(board, depth, rows):
    """Each move at ply k (k = 1..depth) classified as perft --stats does."""
    ply = len(rows) - depth
    for move in board.legal_moves:
        row = rows[ply]
        row["nodes"] += 1
        row["captures"] += board.is_capture(move)
        row["enpassants"] += board.is_en_passant(move)
        row["castles"] += board.is_castling(move)
        row["promotions"] += move.promotion is not None
        board.push(move)
        row["checks"] += board.is_check()
        row["checkmates"] += board.is_checkmate()
        row["stalemates"] += board.is_stalemate()
        if depth > 1:
            leaf_stats(board, depth - 1, rows)
        board.pop()


def test_stats_agree_with_python_chess():
    keys = ["nodes", "captures", "enpassants", "castles", "promotions", "checks", "checkmates", "stalemates"]
    for i, fen in enumerate(random_positions(6, seed=11) + [KIWIPETE]):
        depth = 2 + i % 2
        rows = [dict.fromkeys(keys, 0) for _ in range(depth)]
        leaf_stats(board_of(fen), depth, rows)
        got = perftide.stats(fen, depth, backend="cpu")
        assert got["backend"] == "cpu" and got["depth"] == depth
        assert got["nodes"] == rows[-1]["nodes"]
        for k, row in enumerate(got["stats"]):
            assert row["depth"] == k + 1
            assert {key: row[key] for key in keys} == rows[k], (fen, k + 1)


def test_stats_through_the_table_give_the_same_rows():
    plain = perftide.stats(KIWIPETE, 4, backend="cpu", threads=1)["stats"]
    for hash_mib in (0, 4):
        assert perftide.stats(KIWIPETE, 4, backend="cpu", threads=2, hash_mib=hash_mib)["stats"] == plain
    with pytest.raises(ValueError, match="hash_mib"):
        perftide.stats(KIWIPETE, 4, hash_mib=-1)


def test_a_table_past_the_free_memory_is_refused_in_the_modules_words():
    with pytest.raises(ValueError, match=r"^hash_mib=\d+ MiB is more than the free memory") as refused:
        perftide.stats(KIWIPETE, 4, hash_mib=1 << 40)
    assert (refused.value.setting, refused.value.asked) == ("hash_mib", 1 << 40)
    assert 0 < refused.value.limit < 1 << 40


def test_a_setting_the_run_changed_is_a_warning_in_the_modules_words():
    with pytest.warns(UserWarning, match=r"^hash_mib=64 MiB is more than this run can fill") as notes:
        rows = perftide.stats(KIWIPETE, 3, backend="cpu", threads=1, hash_mib=64)["stats"]
    assert all("--" not in str(n.message) for n in notes)
    assert rows == perftide.stats(KIWIPETE, 3, backend="cpu", threads=1)["stats"]


def distinct_per_ply(board, depth):
    """Distinct positions (python-chess's transposition key: pieces, side,
    castling rights, and an e.p. square only when a capture there is legal)."""
    level = {board._transposition_key(): board}
    counts = [1]
    for _ in range(depth):
        nxt = {}
        for b in level.values():
            for move in b.legal_moves:
                child = b.copy(stack=False)
                child.push(move)
                nxt.setdefault(child._transposition_key(), child)
        level = nxt
        counts.append(len(level))
    return counts


def test_unique_agrees_with_python_chess():
    got = perftide.unique(3)
    assert [p["distinct"] for p in got["plies"]] == distinct_per_ply(chess.Board(), 3) == [1, 20, 400, 5362]
    assert [p["paths"] for p in got["plies"]] == [1, 20, 400, 8902]
    for fen in random_positions(3, seed=5):
        got = perftide.unique(2, fen, threads=2)
        assert [p["distinct"] for p in got["plies"]] == distinct_per_ply(board_of(fen), 2), fen
        assert got["plies"][2]["paths"] == chess_perft(board_of(fen), 2)


def test_unique_diagrams_are_the_published_terms():
    rows = perftide.unique(4, diagrams=True)["plies"]
    assert [p["diagrams"] for p in rows] == [1, 20, 400, 5362, 71852]          # OEIS A019319
    assert [p["diagrams_first"] for p in rows] == [1, 20, 400, 5202, 69731]    # A209433
    assert [p["diagrams_unique"] for p in rows] == [1, 20, 400, 1702, 8659]    # A209080
    assert "diagrams" not in perftide.unique(2)["plies"][2]


def test_proof_games_replay_with_python_chess():
    # P0008141 (Donati, Elkies, Forslund 1996): dual-free in 6 plies.
    diagram = "rnb1kbnr/pppp1ppp/8/4p3/3q4/4KP2/PPPPP1PP/RNBQ1BNR"
    got = perftide.proof(diagram)
    assert (got["verdict"], got["shortest"], got["games"]) == ("dual-free", 6, 1)
    board = chess.Board()
    for san in got["lines"][0].split():
        if not san.endswith("."):
            board.push_san(san)
    assert board.board_fen() == diagram
    assert perftide.proof(diagram, max_plies=3)["verdict"] == "none"
    with pytest.raises(ValueError):
        perftide.proof("8/8/8/8/8/8/8/Kk6")


def replays_to_mate(fen, line, winner):
    board = board_of(fen)
    for uci in line.split():
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, (fen, line, uci)
        board.push(move)
    return board.is_checkmate() and board.turn != winner


def test_analyze_agrees_with_python_chess_and_its_helpmates_replay():
    fens = random_positions(20, seed=3) + ["8/8/8/8/8/8/8/K1k5 w - - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]
    reports = perftide.analyze(fens, budget=20000)
    assert len(reports) == len(fens)
    for fen, r in zip(fens, reports):
        board = board_of(fen)
        assert r["fen"] == fen and r["static_checks"] == "pass" and r["legal"] is not False
        assert r["check"] == board.is_check()
        assert r["checkmate"] == board.is_checkmate()
        assert r["stalemate"] == board.is_stalemate()
        assert r["moves"] == board.legal_moves.count()
        for side, colour in (("white", chess.WHITE), ("black", chess.BLACK)):
            if r[side + "_can_mate"] is True and (side + "_helpmate") in r:
                assert replays_to_mate(fen, r[side + "_helpmate"], colour), (fen, side)
            if board.has_insufficient_material(colour):
                assert r[side + "_can_mate"] is False, (fen, side)
    assert reports[-2]["dead"] is True
    assert reports[-1]["stalemate"] is True
    one = perftide.analyze("startpos ; id \"start\";", side="white", mode="quick")
    assert one["id"] == "start" and one["moves"] == 20 and one["black_can_mate"] is None


def test_analyze_pgn_replays_games_as_python_chess_does():
    import chess.pgn
    import io
    import gzip
    import tempfile

    games = []
    rng = random.Random(11)
    for n in range(12):
        game = chess.pgn.Game()
        board = chess.Board()
        node = game
        for _ in range(rng.randrange(0, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            node = node.add_main_variation(rng.choice(moves))
            board.push(node.move)
        game.headers["Result"] = board.result() if board.is_game_over() else "*"
        games.append((str(game), board))
    text = "\n\n".join(g for g, _ in games) + "\n"
    with tempfile.NamedTemporaryFile(suffix=".pgn.gz", delete=False) as f:
        f.write(gzip.compress(text.encode()))
        path = f.name
    try:
        for source in (text, path):
            out = perftide.analyze_pgn(source, mode="no-search")
            assert out["skipped"] == [] and out["summary"]["games"] == len(games)
            for row, (_, board) in zip(out["games"], games):
                assert chess.Board(row["fen"]).board_fen() == board.board_fen()
                assert row["plies"] == len(board.move_stack)
                assert row["checkmate"] == board.is_checkmate()
    finally:
        os.unlink(path)
    # Lost on time with a bare king left to the winner: unfair; an illegal move: skipped.
    timeouts = ('[Result "1-0"]\n[Termination "Time forfeit"]\n[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/3q4/K7 w - - 0 1"]'
                "\n\n1. Kb1 Qd3+ 1-0\n\n"
                '[Result "0-1"]\n[Termination "Time forfeit"]\n\n1. e4 e5 2. Ke3 0-1\n')
    out = perftide.analyze_pgn(timeouts, timeouts=True)
    assert [r["unfair"] for r in out["games"]] == [True]
    assert out["games"][0]["flagged"] == "black" and out["games"][0]["white_can_mate"] is False
    assert len(out["skipped"]) == 1 and "Ke3" in out["skipped"][0]
    assert out["summary"]["unfair"] == 1


def test_analyze_pgn_takes_paths_bytes_and_text_by_a_stated_rule():
    import gzip
    import pathlib
    import tempfile

    mate = perftide.analyze_pgn("1. f3 e5 2. g4 Qh4# 0-1", mode="no-search")
    assert mate["summary"]["games"] == 1 and mate["games"][0]["checkmate"] is True
    # Not UTF-8 (Latin-1 names, a stray byte as a move): read as the command line reads a file, bytes that
    # are not UTF-8 becoming the code points of their values, as in its JSON.
    latin1 = b'[White "Jos\xe9"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n[White "Ren\xe9"]\n\n1. e4 \xe9\xe9 1-0\n'
    with tempfile.NamedTemporaryFile(suffix=".pgn", delete=False) as f:
        f.write(latin1)
        path = f.name
    try:
        for source in (latin1, gzip.compress(latin1), path, pathlib.Path(path)):
            out = perftide.analyze_pgn(source, mode="no-search")
            assert out["summary"]["games"] == 2 and out["summary"]["skipped"] == 1, source
            assert out["games"][0]["white"] == "Jos\u00e9"
            assert "Ren\u00e9" in out["skipped"][0] and "'\u00e9\u00e9'" in out["skipped"][0], out["skipped"]
    finally:
        os.unlink(path)
    with pytest.raises(ValueError, match="'no_such_file.pgn' is no file, nor PGN text"):
        perftide.analyze_pgn("no_such_file.pgn")
    with pytest.raises(TypeError, match="source: a str"):
        perftide.analyze_pgn(42)
    # Cut short: refused with where, as the command line's exit 2.
    cut = gzip.compress(latin1 * 400)
    with pytest.raises(ValueError, match="bytes: the gzip data ends in the middle, cut after"):
        perftide.analyze_pgn(cut[: len(cut) // 2], mode="no-search")


def test_verify_is_clean():
    r = perftide.verify(positions=40, depth=2, seed=9, fens=[KIWIPETE])
    assert r["result"] == "clean" and r["samples"] == 40 and r["roots"] == 2 and r["nodes"] > 40


def test_counts_are_exact_past_2_to_the_64():
    for v in [2**53 + 1, 2**64 + 1, 61885021521585529237, 2**128 - 1]:
        got = perftide._int_of_count_text(str(v))
        assert type(got) is int and got == v


def cli_error(args):
    binary = os.environ.get("PERFTIDE_BINARY")
    if not binary:
        pytest.skip("PERFTIDE_BINARY is not set")
    p = subprocess.run([binary] + args, capture_output=True, text=True)
    assert p.returncode != 0
    return p.stderr.splitlines()[0]


def test_bad_input_raises_value_error_with_the_cli_message():
    bad = "rnbqkbnr/pppppppp/8 w - - 0 1"
    with pytest.raises(ValueError) as e:
        perftide.perft(bad, 1)
    assert cli_error(["perft", "--fen", bad, "--depth", "1"]) == "--fen: " + str(e.value)
    with pytest.raises(ValueError, match="fens\\[1\\]: "):
        perftide.analyze(["startpos", "not a fen"])
    with pytest.raises(ValueError, match="not a backend"):
        perftide.perft("startpos", 1, backend="tpu")
    with pytest.raises(ValueError, match="depth"):
        perftide.perft("startpos", -1)
    with pytest.raises(ValueError, match="threads"):
        perftide.unique(1, threads=0)
    with pytest.raises(ValueError, match="mode"):
        perftide.analyze("startpos", mode="fastest")
    # A limit speaks the module's words and carries its facts.
    with pytest.raises(ValueError, match="memory_mib=1 MiB cannot hold") as refused:
        perftide.unique(5, memory_mib=1)
    assert "--" not in str(refused.value)
    assert (refused.value.setting, refused.value.asked) == ("memory_mib", 1)
    assert refused.value.limit > 1
    with pytest.raises(ValueError, match="memory_mib: 0 is not in 1..16777216"):
        perftide.unique(3, memory_mib=0)
    assert "--memory: Value 0 not in range" in cli_error(["unique", "--depth", "3", "--memory", "0"])


def test_long_calls_release_the_gil():
    result = []
    worker = threading.Thread(target=lambda: result.append(perftide.perft(KIWIPETE, 5, threads=1)))
    ticks = 0
    worker.start()
    while worker.is_alive():
        time.sleep(0.005)
        ticks += 1
    assert result == [193690690]
    assert ticks >= 10, "the main thread ran only %d times during the perft" % ticks


def interrupted(call, after="", wait=0.5):
    """Runs `call` in a fresh interpreter and sends it SIGINT `wait` seconds in;
    the lines it printed ('interrupted' when KeyboardInterrupt was raised, then
    what `after` prints) and the seconds the interrupt took."""
    code = ("import perftide\n"
            "print('go', flush=True)\n"
            "try:\n"
            "    " + call + "\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n" + after)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "go\n"
    time.sleep(wait)
    start = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    return out.split(), time.monotonic() - start


def test_ctrl_c_interrupts_a_long_call():
    out, seconds = interrupted("perftide.perft('startpos', 10, threads=1)",
                               after="print(perftide.perft('startpos', 4, threads=1), flush=True)\n")
    assert seconds < 3, "the interrupt took too long"
    assert out == ["interrupted", "197281"], "the call after the interrupt counts normally"


BARE_KINGS = "8/8/8/8/8/8/8/K1k5 w - - 0 1"


def run_child(code, timeout):
    """Runs code in a fresh interpreter; its stdout lines, or a failure when it runs past timeout."""
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail("the call did not return within %d s" % timeout)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_perft_counts_deep_as_the_command_line_does():
    # Depth 30 of bare kings: the command line answers through its tables in
    # a fraction of a second; counted plainly it would take hours.
    binary = os.environ.get("PERFTIDE_BINARY")
    if not binary:
        pytest.skip("PERFTIDE_BINARY is not set")
    cli = subprocess.run([binary, "perft", "--fen", BARE_KINGS, "--depth", "30", "--backend", "cpu", "--quiet"],
                         capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0, cli.stderr
    expected = cli.stdout.split()[-1]
    got = run_child("import perftide\nprint(perftide.perft(%r, 30, backend='cpu'))" % BARE_KINGS, 60)
    assert got == [expected]


def test_ctrl_c_interrupts_table_statistics():
    # Two seconds in, the count is well inside the table recursion.
    out, seconds = interrupted("perftide.stats('startpos', 12, threads=1, hash_mib=64)", wait=2)
    assert seconds < 1.5, "the interrupt took too long"
    assert out == ["interrupted"]
