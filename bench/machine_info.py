"""The machine a benchmark ran on, as every results/ file records it."""
import os
import platform


def cpu_model():
    """The CPU's model name from /proc/cpuinfo (else what platform says)."""
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def machine():
    """CPU model, logical cores, memory and system."""
    mem_kb = 0
    try:
        with open("/proc/meminfo") as f:
            mem_kb = int(next(line.split()[1] for line in f if line.startswith("MemTotal")))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "memory_gib": round(mem_kb / 2**20, 1),
            "system": platform.platform()}
