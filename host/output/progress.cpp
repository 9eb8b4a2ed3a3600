#include "output/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>

namespace perftide {

namespace {

constexpr int BAR_WIDTH = 20;
constexpr auto MIN_REDRAW = std::chrono::milliseconds(250);
constexpr auto FIRST_DRAW = std::chrono::seconds(1);  // a shorter run draws nothing

std::atomic<double> log_seconds_setting{0};

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

std::string progress_line(size_t done, size_t total, double rate, double eta_seconds, const char* what,
                          bool nodes_rate) {
    char rate_text[48];
    // Nodes in M, k or ones, so that a slow count (verify's) never reads 0.0.
    if (nodes_rate && rate >= 1e6)
        std::snprintf(rate_text, sizeof rate_text, "%.1f M nodes/s", rate / 1e6);
    else if (nodes_rate && rate >= 1e3)
        std::snprintf(rate_text, sizeof rate_text, "%.1f k nodes/s", rate / 1e3);
    else if (nodes_rate)
        std::snprintf(rate_text, sizeof rate_text, "%.0f nodes/s", rate);
    else
        std::snprintf(rate_text, sizeof rate_text, "%.1f %s/s", rate, what);
    char buf[200];
    if (total == 0) {
        std::snprintf(buf, sizeof buf, "%zu %s  %s", done, what, rate_text);
        return buf;
    }
    const int filled = std::clamp(int(double(done) / double(total) * BAR_WIDTH), 0, BAR_WIDTH);
    std::string bar(BAR_WIDTH + 2, '.');
    bar.front() = '[';
    bar.back() = ']';
    std::fill_n(bar.begin() + 1, filled, '#');
    std::snprintf(buf, sizeof buf, "%s %zu/%zu %s  %s  ETA %s", bar.c_str(), done, total, what, rate_text,
                  format_duration(eta_seconds).c_str());
    return buf;
}

Progress::Progress(size_t total, const Options& o)
    : total_(total), resumed_(o.resumed), what_(o.what), done_(o.resumed) {
    const bool terminal = stderr_is_terminal();
    line_seconds_ = o.line_seconds ? *o.line_seconds : terminal ? 0 : log_seconds_setting.load();
    enabled_ = o.wanted && (line_seconds_ > 0 || terminal);
}

bool Progress::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

void Progress::set_log_seconds(double seconds) { log_seconds_setting = seconds; }

double Progress::log_seconds() { return log_seconds_setting.load(); }

void Progress::update(size_t done, chess::u128 nodes) {
    if (!enabled_) return;
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock) return;  // another thread is drawing
    done_ = done, nodes_ = nodes, counts_nodes_ = counts_nodes_ || nodes != 0;
    draw_locked(Clock::now());
}

void Progress::advance(size_t units, chess::u128 nodes) {
    if (!enabled_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    done_ += units, nodes_ += nodes, counts_nodes_ = counts_nodes_ || nodes != 0;
    draw_locked(Clock::now());
}

void Progress::draw_locked(Clock::time_point now) {
    if (line_seconds_ > 0) {
        const auto since = now - (last_draw_ == Clock::time_point{} ? start_ : last_draw_);
        if (since < std::chrono::duration<double>(line_seconds_)) return;
    } else if (now - start_ < FIRST_DRAW || (drawn_ && now - last_draw_ < MIN_REDRAW)) {
        return;
    }
    last_draw_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const size_t fresh = done_ > resumed_ ? done_ - resumed_ : 0;
    const double rate = elapsed > 0 ? (counts_nodes_ ? double(nodes_) : double(fresh)) / elapsed : 0;
    const double eta = fresh && total_ ? elapsed / double(fresh) * double(total_ > done_ ? total_ - done_ : 0) : NAN;
    const std::string line = progress_line(done_, total_, rate, eta, what_, counts_nodes_);
    if (line_seconds_ > 0) {
        std::fprintf(stderr, "perftide: %s\n", line.c_str());
    } else {
        std::fprintf(stderr, "\r%s\033[K", line.c_str());
        drawn_ = true;
    }
    std::fflush(stderr);
}

void Progress::set_total(size_t total) {
    std::lock_guard<std::mutex> lock(mutex_);
    total_ = total;
}

void Progress::finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
}

}  // namespace perftide
