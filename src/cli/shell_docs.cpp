#include "cli/shell_docs.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

namespace gpuscout::cli {
namespace {

/// One option as the shells see it: its long and short spellings, whether it takes a value and whether that value
/// names a file (CLI11 type names FILE, PATH, DIR).
struct OptionView {
  std::vector<std::string> longs, shorts;
  std::string help;
  bool takes_value = false;
  bool file = false;
  std::string value_name;
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::vector<OptionView> options_of(const CLI::App& app) {
  std::vector<OptionView> out;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_lnames().empty() && opt->get_snames().empty()) continue;  // a positional
    OptionView v;
    for (const auto& n : opt->get_lnames()) v.longs.push_back("--" + n);
    for (const auto& n : opt->get_snames()) v.shorts.push_back("-" + n);
    v.help = first_line(opt->get_description());
    v.takes_value = opt->get_items_expected_max() > 0;
    v.value_name = opt->get_type_name();
    v.file = v.value_name.find("FILE") != std::string::npos || v.value_name == "PATH" || v.value_name == "DIR";
    out.push_back(std::move(v));
  }
  return out;
}

/// The commands a user may type: the hidden ones (an empty group) are left out.
std::vector<const CLI::App*> commands_of(const CLI::App& root) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : root.get_subcommands({}))
    if (!sub->get_group().empty()) out.push_back(sub);
  return out;
}

/// Text inside a single-quoted shell word.
std::string single_quoted(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out;
}

std::string words_of(const std::vector<OptionView>& opts) {
  std::vector<std::string> words;
  for (const auto& o : opts) {
    words.insert(words.end(), o.longs.begin(), o.longs.end());
    words.insert(words.end(), o.shorts.begin(), o.shorts.end());
  }
  return fmt::format("{}", fmt::join(words, " "));
}

/// bash: the `case` arms that complete an option's value (files) or complete nothing (any other value).
std::string bash_value_arms(const std::string& cmd, const std::vector<OptionView>& opts) {
  std::vector<std::string> files, others;
  for (const auto& o : opts) {
    if (!o.takes_value) continue;
    for (const auto& n : o.longs) (o.file ? files : others).push_back(cmd + ":" + n);
    for (const auto& n : o.shorts) (o.file ? files : others).push_back(cmd + ":" + n);
  }
  std::string out;
  if (!files.empty())
    out += fmt::format("    {}) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n",
                       fmt::join(files, "|"));
  if (!others.empty()) out += fmt::format("    {}) COMPREPLY=(); return ;;\n", fmt::join(others, "|"));
  return out;
}

/// The length of the UTF-8 sequence that starts with `lead`, 0 for a byte no sequence starts with.
size_t utf8_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 0;
}

/// man(7): a line of text with roff's special characters escaped, and every character past ASCII as roff's
/// \[uXXXX], so that groff renders the page without preconv (the help text names 中文).
std::string roff(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const auto lead = static_cast<unsigned char>(s[i]);
    const size_t n = utf8_length(lead);
    if (n == 0 || i + n > s.size()) {
      ++i;  // not UTF-8: the help text is ours, so this is never met; skip the byte rather than write it
      continue;
    }
    if (n > 1) {
      uint32_t cp = lead & (0x7F >> n);
      for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      out += fmt::format("\\[u{:04X}]", cp);
    } else if (s[i] == '\\') {
      out += "\\e";
    } else if (s[i] == '-') {
      out += "\\-";
    } else {
      out += s[i];
    }
    i += n;
  }
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

/// Several lines of text, each escaped (a line may start with '.').
std::string roff_lines(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    out += roff(text.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  return out;
}

std::string man_options(const std::vector<OptionView>& opts) {
  std::string out;
  for (const auto& o : opts) {
    std::vector<std::string> names;
    for (const auto& n : o.shorts) names.push_back("\\fB" + roff(n) + "\\fR");
    for (const auto& n : o.longs) names.push_back("\\fB" + roff(n) + "\\fR");
    const std::string value = o.takes_value && !o.value_name.empty() ? " \\fI" + roff(o.value_name) + "\\fR" : "";
    out += fmt::format(".TP\n{}{}\n{}\n", fmt::join(names, ", "), value, roff(o.help));
  }
  return out;
}

/// The NAME section's line: the description's first line after "gpuscout: ", without a trailing comma.
std::string name_line(const std::string& description) {
  const size_t colon = description.find(": ");
  std::string line = first_line(colon == std::string::npos ? description : description.substr(colon + 2));
  while (!line.empty() && (line.back() == ',' || line.back() == ' ')) line.pop_back();
  return line;
}

}  // namespace

std::string bash_completion(const CLI::App& root) {
  const auto global = options_of(root);
  std::vector<std::string> names;
  std::string arms = bash_value_arms("*", global), words;
  for (const CLI::App* sub : commands_of(root)) {
    names.push_back(sub->get_name());
    const auto opts = options_of(*sub);
    arms += bash_value_arms(sub->get_name(), opts);
    words += fmt::format("    {}) words=\"{} {}\" ;;\n", sub->get_name(), words_of(opts), words_of(global));
  }
  const std::string list = fmt::format("{}", fmt::join(names, "|"));
  return fmt::format(
      "# bash completion for gpuscout, generated from its command table (gpuscout completion bash)\n"
      "_gpuscout() {{\n"
      "  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} cmd= words i\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    case ${{COMP_WORDS[i]}} in\n      {}) cmd=${{COMP_WORDS[i]}}; break ;;\n    esac\n  done\n"
      "  case \"$cmd:$prev\" in\n{}  esac\n"
      "  case $cmd in\n{}    *) words=\"{} {}\" ;;\n  esac\n"
      "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
      "}}\n"
      "complete -F _gpuscout gpuscout\n",
      list, arms, words, fmt::join(names, " "), words_of(global));
}

std::string zsh_completion(const CLI::App& root) {
  const auto spec = [](const std::vector<OptionView>& opts) {
    std::string out;
    for (const auto& o : opts) {
      std::string help = o.help;
      for (char& c : help)
        if (c == '[') c = '(';
        else if (c == ']') c = ')';
        else if (c == ':') c = ' ';
      const std::string value = !o.takes_value ? "" : o.file ? ":file:_files" : ":value: ";
      for (const auto& n : o.longs) out += fmt::format(" \\\n    '{}[{}]{}'", n, single_quoted(help), value);
      for (const auto& n : o.shorts) out += fmt::format(" \\\n    '{}[{}]{}'", n, single_quoted(help), value);
    }
    return out;
  };
  const auto global = options_of(root);
  std::string commands, arms;
  for (const CLI::App* sub : commands_of(root)) {
    std::string help = first_line(sub->get_description());
    for (char& c : help)
      if (c == ':') c = ' ';
    commands += fmt::format("    '{}:{}'\n", sub->get_name(), single_quoted(help));
    arms += fmt::format("    {}) _arguments{}{} ;;\n", sub->get_name(), spec(options_of(*sub)), spec(global));
  }
  return fmt::format(
      "#compdef gpuscout\n# zsh completion for gpuscout, generated from its command table (gpuscout completion zsh)\n"
      "_gpuscout() {{\n  local -a commands\n  commands=(\n{}  )\n"
      "  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    _arguments{}\n    return\n  fi\n"
      "  case $words[2] in\n{}  esac\n}}\n_gpuscout \"$@\"\n",
      commands, spec(global), arms);
}

std::string fish_completion(const CLI::App& root) {
  const auto lines = [](const std::vector<OptionView>& opts, const std::string& condition) {
    std::string out;
    for (const auto& o : opts) {
      std::string flags;
      for (const auto& n : o.longs) flags += " -l " + n.substr(2);
      for (const auto& n : o.shorts) flags += " -s " + n.substr(1);
      const std::string value = !o.takes_value ? "" : o.file ? " -r -F" : " -r";
      out += fmt::format("complete -c gpuscout -n '{}'{}{} -d '{}'\n", condition, flags, value, single_quoted(o.help));
    }
    return out;
  };
  std::vector<std::string> names;
  for (const CLI::App* sub : commands_of(root)) names.push_back(sub->get_name());
  std::string out = "# fish completion for gpuscout, generated from its command table (gpuscout completion fish)\n"
                    "complete -c gpuscout -f\n";
  for (const CLI::App* sub : commands_of(root))
    out += fmt::format("complete -c gpuscout -n __fish_use_subcommand -a {} -d '{}'\n", sub->get_name(),
                       single_quoted(first_line(sub->get_description())));
  out += lines(options_of(root), "true");
  for (const CLI::App* sub : commands_of(root))
    out += lines(options_of(*sub), "__fish_seen_subcommand_from " + sub->get_name());
  return out;
}

std::string man_page(const CLI::App& root) {
  const std::string description = root.get_description();
  std::string out = fmt::format(
      ".TH GPUSCOUT 1 \"\" \"gpuscout {}\" \"User Commands\"\n.SH NAME\ngpuscout \\- {}\n"
      ".SH SYNOPSIS\n.B gpuscout\n[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR] [\\fICOMMAND OPTIONS\\fR]\n"
      ".SH DESCRIPTION\n",
      GPUSCOUT_VERSION, roff(name_line(description)));
  out += roff_lines(description) + ".SH OPTIONS\n" + man_options(options_of(root)) + ".SH COMMANDS\n";
  for (const CLI::App* sub : commands_of(root))
    out += fmt::format(".SS {}\n{}{}", roff(sub->get_name()), roff_lines(sub->get_description()),
                       man_options(options_of(*sub)));
  out += ".SH SEE ALSO\n\\fBnvidia\\-smi\\fR(1)\n";
  return out;
}

}  // namespace gpuscout::cli
