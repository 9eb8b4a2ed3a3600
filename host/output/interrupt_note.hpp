// While a journaled run is going, SIGINT or SIGTERM first says where the
// finished work is kept and how to resume (or, when the journal file does
// not exist yet, that nothing is kept), then ends the process as the
// signal would have (the shell sees the usual status). The journal itself
// needs nothing more: every record is written whole and fsync'd.
#pragma once

#include <string>

namespace perftide {

class InterruptNote {
   public:
    // `journal_path`: the file this process writes (a rank's own file
    // under a launcher), looked for when the signal comes.
    explicit InterruptNote(const std::string& journal_path);
    ~InterruptNote();  // the previous handlers again
    InterruptNote(const InterruptNote&) = delete;
    InterruptNote& operator=(const InterruptNote&) = delete;
};

}  // namespace perftide
