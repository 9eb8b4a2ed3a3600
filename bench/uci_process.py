"""One UCI engine process for the bench scripts: started, told `uci`, its
output read on a thread of its own so every wait has a timeout."""
import queue
import shlex
import subprocess
import threading
import time


class UciProcess:
    def __init__(self, command):
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.send("uci")
        self.wait_for(lambda l: l == "uciok", 30)

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, done, timeout):
        """Lines up to and including the first for which done(line); None on timeout or exit."""
        seen = []
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            seen.append(line)
            if done(line):
                return seen

    def close(self):
        """stop, then quit; killed when it does not end within 5 s."""
        try:
            self.send("stop")
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
            self.proc.wait()
