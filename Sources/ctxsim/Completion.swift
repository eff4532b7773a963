/// `ctxsim --generate-completion-script bash|zsh|fish`: a script that completes commands,
/// their options and the values an option takes, written from the same option tables the
/// parser and help use, so it cannot fall behind them. Install as swift-argument-parser's
/// tools are installed (README, "Shell completion").
enum Completion {
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  static func script(for shell: Shell) -> String {
    let commands = ArgumentParser.subcommands
    switch shell {
    case .bash: return bash(commands)
    case .zsh: return zsh(commands)
    case .fish: return fish(commands)
    }
  }

  /// Whether an option's value is a path, completed with file names; other values (a
  /// number, Swift) complete to nothing.
  private static func takesPath(_ option: OptionHelp) -> Bool {
    let name = option.valueName ?? ""
    return ["file", "path", "dir", "model", "html"].contains { name.contains($0) }
  }

  /// Every command name completed at the first word, `help` and `version` included.
  private static func names(_ commands: [AnySubcommand]) -> [String] {
    commands.map(\.name) + ["help", "version"]
  }

  private static func bash(_ commands: [AnySubcommand]) -> String {
    var cases = ""
    for command in commands {
      let spellings = command.options.flatMap(\.names) + ["--help"]
      cases += "    \(command.name))\n"
      cases += "      case \"$prev\" in\n"
      for option in command.options where option.valueName != nil {
        let reply =
          option.values.map { "($(compgen -W \"\($0.joined(separator: " "))\" -- \"$cur\"))" }
          ?? (takesPath(option) ? "($(compgen -f -- \"$cur\"))" : "()")
        cases += "        \(option.names.joined(separator: "|"))) COMPREPLY=\(reply); return ;;\n"
      }
      cases += "      esac\n"
      cases += "      opts=\"\(spellings.joined(separator: " "))\" ;;\n"
    }
    return """
      # bash completion for ctxsim, written by `ctxsim --generate-completion-script bash`.
      _ctxsim() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" opts=""
        if [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\(names(commands).joined(separator: " ")) --help --version" -- "$cur"))
          return
        fi
        case "${COMP_WORDS[1]}" in
      \(cases)    help) COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur")); return ;;
        esac
        if [[ "$cur" == -* ]]; then
          COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        else
          COMPREPLY=($(compgen -f -- "$cur"))
        fi
      }
      complete -o filenames -F _ctxsim ctxsim

      """
  }

  /// zsh's `_arguments` specs, with `[`, `]` and `:` in abstracts escaped.
  private static func zsh(_ commands: [AnySubcommand]) -> String {
    func escape(_ text: String) -> String {
      text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "'\\''")
        .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        .replacingOccurrences(of: ":", with: "\\:")
    }
    let described =
      commands.map { "'\($0.name):\(escape($0.help.abstract))'" }
      + ["'help:Show help for a subcommand.'", "'version:Show the version.'"]
    var cases = ""
    for command in commands {
      let specs = command.options.map { option -> String in
        let names =
          option.names.count > 1 ? "{\(option.names.joined(separator: ","))}" : option.names[0]
        let value =
          option.valueName.map { name in
            ":\(escape(name)):"
              + (option.values.map { "(\($0.joined(separator: " ")))" }
                ?? (takesPath(option) ? "_files" : " "))
          } ?? ""
        return "'\(names)[\(escape(option.abstract))]\(value)'"
      }
      cases +=
        "    \(command.name)) _arguments \\\n      "
        + (specs + ["'*:file:_files'"]).joined(separator: " \\\n      ") + " ;;\n"
    }
    return """
      #compdef ctxsim
      # zsh completion for ctxsim, written by `ctxsim --generate-completion-script zsh`.
      _ctxsim() {
        local -a commands
        commands=(\(described.joined(separator: " ")))
        if (( CURRENT == 2 )); then
          _describe 'command' commands
          return
        fi
        local command=$words[2]
        shift words
        (( CURRENT-- ))
        case $command in
      \(cases)    help) _describe 'command' commands ;;
        esac
      }
      _ctxsim "$@"

      """
  }

  private static func fish(_ commands: [AnySubcommand]) -> String {
    func quote(_ text: String) -> String {
      "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'"
    }
    var lines = [
      "# fish completion for ctxsim, written by `ctxsim --generate-completion-script fish`.",
      "complete -c ctxsim -f",
    ]
    let all = names(commands).joined(separator: " ")
    for command in commands {
      lines.append(
        "complete -c ctxsim -n \"not __fish_seen_subcommand_from \(all)\" -a \(command.name) -d \(quote(command.help.abstract))"
      )
    }
    lines.append(
      "complete -c ctxsim -n \"not __fish_seen_subcommand_from \(all)\" -a help -d 'Show help for a subcommand.'"
    )
    lines.append(
      "complete -c ctxsim -n \"not __fish_seen_subcommand_from \(all)\" -a version -d 'Show the version.'"
    )
    for command in commands {
      let when = "-n \"__fish_seen_subcommand_from \(command.name)\""
      lines.append("complete -c ctxsim \(when) -F")
      for option in command.options {
        var spelling = ""
        for name in option.names {
          spelling += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
        }
        var value = ""
        if option.valueName != nil {
          value =
            option.values.map { " -x -a \(quote($0.joined(separator: " ")))" }
            ?? (takesPath(option) ? " -r -F" : " -x")
        }
        lines.append("complete -c ctxsim \(when)\(spelling)\(value) -d \(quote(option.abstract))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
