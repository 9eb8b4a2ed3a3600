#include "commands/manual.hpp"

#include <string_view>
#include <vector>

namespace perftide::cli {

namespace {

// roff: backslashes escaped, a leading dot or quote neutralised, hyphens
// written as \- so that options copy and search as typed.
std::string roff(std::string_view text) {
    std::string out;
    bool line_start = true;
    for (char c : text) {
        if (line_start && (c == '.' || c == '\'')) out += "\\&";
        if (c == '\\') out += "\\e";
        else if (c == '-') out += "\\-";
        else out += c;
        line_start = c == '\n';
    }
    return out;
}

std::vector<const CLI::App*> subcommands(const CLI::App& app) {
    return app.get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); });
}

// The options shown by --help (those of an empty group are hidden ones).
std::vector<const CLI::Option*> shown_options(const CLI::App& app) {
    return app.get_options([](const CLI::Option* o) { return !o->get_group().empty() && !o->get_name().empty(); });
}

// An option's names as typed: "-d", "--depth".
std::vector<std::string> option_names(const CLI::Option& o) {
    std::vector<std::string> names;
    for (const std::string& s : o.get_snames()) names.push_back("-" + s);
    for (const std::string& l : o.get_lnames()) names.push_back("--" + l);
    return names;
}

// "-d, --depth INT" in roff; a positional argument by its name.
std::string option_heading(const CLI::Option& o) {
    std::vector<std::string> all = option_names(o);
    if (all.empty()) all.push_back(o.get_name(true, false));
    std::string names;
    for (const std::string& name : all)
        names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff(name) + "\\fR";
    if (o.get_type_size() != 0 && !o.get_type_name().empty()) names += " \\fI" + roff(o.get_type_name()) + "\\fR";
    return names;
}

void options_section(std::string& out, const CLI::App& app) {
    for (const CLI::Option* o : shown_options(app)) {
        out += ".TP\n" + option_heading(*o) + "\n";
        std::string text = o->get_description();
        if (o->get_required()) text += " (required)";
        out += roff(text.empty() ? "(no description)" : text) + "\n";
    }
}

// Every long and short option name of a command, space separated.
std::string option_words(const CLI::App& app) {
    std::string words;
    for (const CLI::Option* o : shown_options(app))
        for (const std::string& name : option_names(*o)) words += " " + name;
    return words;
}

}  // namespace

std::string man_page(const CLI::App& app, const std::string& version) {
    std::string out = ".TH PERFTIDE 1 \"\" \"perftide " + roff(version) + "\" \"User Commands\"\n";
    out += ".SH NAME\nperftide \\- GPU\\-accelerated perft and position analyzer\n";
    out += ".SH SYNOPSIS\n.B perftide\n[\\fB\\-\\-version\\fR [\\fB\\-\\-json\\fR]] [\\fB\\-\\-help\\fR]\n.br\n.B perftide\n"
           "\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.br\n.B mpirun\n\\-np \\fIK\\fR \\fBperftide\\fR perft|unique "
           "[\\fIOPTIONS\\fR]\n";
    out += ".SH DESCRIPTION\n" + roff(app.get_description()) +
           ".\nWith no command, perftide counts perft of the start position and checks it against the published "
           "count.\nEach command's options follow; \\fBperftide\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints the "
           "same.\n";
    out += ".SH OPTIONS\n";
    options_section(out, app);
    out += ".SH COMMANDS\n";
    for (const CLI::App* s : subcommands(app)) {
        out += ".SS \"" + roff(s->get_name()) + "\"\n" + roff(s->get_description()) + "\n";
        options_section(out, *s);
    }
    out += ".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\na check failed: counts differ, engines disagree\n.TP\n2\n"
           "bad arguments or input, or a backend that is not there\n.TP\n3\nan internal error or a device fault: no "
           "result\n.TP\n4\nthe result could not be written (a full disk, a closed stream)\n";
    out += ".SH SEE ALSO\nThe manual pages of the source tree, docs/*.md: one per command or concern.\n";
    return out;
}

std::string bash_completion(const CLI::App& app) {
    std::string names, cases;
    for (const CLI::App* s : subcommands(app)) {
        names += " " + s->get_name();
        cases += "        " + s->get_name() + ") words=\"" + option_words(*s) + " --help\" ;;\n";
    }
    return "# bash completion for perftide, made by `perftide --bash-completion`.\n"
           "_perftide() {\n"
           "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" command=\"\" words i\n"
           "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
           "        case \" " + names.substr(1) + " \" in *\" ${COMP_WORDS[i]} \"*) command=\"${COMP_WORDS[i]}\"; break ;; esac\n"
           "    done\n"
           "    case \"$command\" in\n" + cases +
           "        *) words=\"" + names.substr(1) + option_words(app) + " --help\" ;;\n"
           "    esac\n"
           "    if [[ -z \"$command\" || \"$cur\" == -* ]]; then\n"
           "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
           "    else\n"
           "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
           "    fi\n"
           "}\n"
           "complete -o default -F _perftide perftide perftide-mpi\n";
}

}  // namespace perftide::cli
