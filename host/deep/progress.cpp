#include "deep/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gperft {

namespace {

constexpr int BAR_WIDTH = 20;
constexpr auto MIN_REDRAW = std::chrono::milliseconds(250);

}  // namespace

std::string format_duration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "?";
    const long s = std::lround(seconds);
    char buf[32];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%lds", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
    return buf;
}

std::string progress_line(size_t done, size_t total, double nodes_per_second, double eta_seconds) {
    const int filled = total ? std::clamp(int(double(done) / double(total) * BAR_WIDTH), 0, BAR_WIDTH) : BAR_WIDTH;
    std::string bar(BAR_WIDTH + 2, '.');
    bar.front() = '[';
    bar.back() = ']';
    std::fill_n(bar.begin() + 1, filled, '#');
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s %zu/%zu units  %.1f M nodes/s  ETA %s", bar.c_str(), done, total,
                  nodes_per_second / 1e6, format_duration(eta_seconds).c_str());
    return buf;
}

Progress::Progress(size_t total, size_t resumed, bool enabled) : total_(total), resumed_(resumed), enabled_(enabled) {}

bool Progress::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

void Progress::update(size_t done, chess::u128 nodes) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (drawn_ && now - last_draw_ < MIN_REDRAW) return;
    last_draw_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const size_t fresh = done > resumed_ ? done - resumed_ : 0;
    const double nps = elapsed > 0 ? double(nodes) / elapsed : 0;
    const double eta = fresh ? elapsed / double(fresh) * double(total_ - done) : NAN;
    std::fprintf(stderr, "\r%s\033[K", progress_line(done, total_, nps, eta).c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void Progress::finish() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
}

}  // namespace gperft
