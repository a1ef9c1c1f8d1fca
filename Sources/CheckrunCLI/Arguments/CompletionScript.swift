/// Shell completion scripts generated from the same declarations the parser uses.
enum CompletionScript {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell, commands: [CommandDefinition], global: [OptionDefinition]) -> String {
        switch shell {
        case .bash: return bash(commands, global)
        case .zsh: return zsh(commands, global)
        case .fish: return fish(commands, global)
        }
    }

    private static func words(_ kind: CompletionKind, _ commands: [CommandDefinition]) -> [String]? {
        switch kind {
        case .values(let values): return values
        case .commands: return commands.map(\.name)
        default: return nil
        }
    }

    private static func bashCompletion(_ kind: CompletionKind, _ commands: [CommandDefinition]) -> String {
        switch kind {
        case .file: return "COMPREPLY=( $(compgen -f -- \"$cur\") )"
        case .directory: return "COMPREPLY=( $(compgen -d -- \"$cur\") )"
        case .none: return "COMPREPLY=()"
        case .values, .commands:
            return "COMPREPLY=( $(compgen -W \"\(words(kind, commands)?.joined(separator: " ") ?? "")\" -- \"$cur\") )"
        }
    }

    private static func bash(_ commands: [CommandDefinition], _ global: [OptionDefinition]) -> String {
        var lines = [
            "# bash completion for checkrun. Load it with: source <(checkrun completion bash)",
            "_checkrun() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
            "        COMPREPLY=( $(compgen -W \"\(commands.map(\.name).joined(separator: " ")) --help --version\" -- \"$cur\") )",
            "        return",
            "    fi",
            "    case \"${COMP_WORDS[1]}\" in",
        ]
        for command in commands {
            let options = command.options + global
            lines.append("        \(command.name))")
            lines.append("            case \"$prev\" in")
            for option in options where option.takesValue {
                lines.append("                --\(option.name)) \(bashCompletion(option.completion, commands)); return ;;")
            }
            lines.append("            esac")
            lines.append("            if [[ \"$cur\" == -* ]]; then")
            lines.append("                COMPREPLY=( $(compgen -W \"\(options.map { "--" + $0.name }.joined(separator: " "))\" -- \"$cur\") )")
            lines.append("            else")
            lines.append("                \(bashCompletion(command.arguments.first?.completion ?? .none, commands))")
            lines.append("            fi")
            lines.append("            ;;")
        }
        lines += ["    esac", "}", "complete -F _checkrun checkrun", ""]
        return lines.joined(separator: "\n")
    }

    private static func zshAction(_ kind: CompletionKind, _ commands: [CommandDefinition]) -> String {
        switch kind {
        case .file: return "_files"
        case .directory: return "_files -/"
        case .none: return " "
        case .values, .commands: return "(\(words(kind, commands)?.joined(separator: " ") ?? ""))"
        }
    }

    private static func zshEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
    }

    private static func zsh(_ commands: [CommandDefinition], _ global: [OptionDefinition]) -> String {
        var lines = [
            "#compdef checkrun",
            "# zsh completion for checkrun. Load it with: source <(checkrun completion zsh)",
            "_checkrun() {",
            "    local -a commands",
            "    commands=(",
        ]
        lines += commands.map { "        '\($0.name):\(zshEscape($0.abstract))'" }
        lines += [
            "    )",
            "    if (( CURRENT == 2 )); then",
            "        _describe 'command' commands",
            "        return",
            "    fi",
            "    case \"$words[2]\" in",
        ]
        for command in commands {
            lines.append("        \(command.name))")
            var specs: [String] = []
            for option in command.options + global {
                let help = zshEscape(option.help)
                switch option.kind {
                case .flag: specs.append("'--\(option.name)[\(help)]'")
                case .value(let value): specs.append("'--\(option.name)=[\(help)]:\(value):\(zshAction(option.completion, commands))'")
                case .repeated(let value): specs.append("'*--\(option.name)=[\(help)]:\(value):\(zshAction(option.completion, commands))'")
                }
            }
            if let argument = command.arguments.first {
                specs.append("'\(argument.isRepeating ? "*" : "1"):\(argument.name):\(zshAction(argument.completion, commands))'")
            }
            lines.append("            _arguments -s \\")
            lines.append(specs.map { "                \($0)" }.joined(separator: " \\\n"))
            lines.append("            ;;")
        }
        lines += ["    esac", "}", "compdef _checkrun checkrun", ""]
        return lines.joined(separator: "\n")
    }

    private static func fishEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }

    private static func fish(_ commands: [CommandDefinition], _ global: [OptionDefinition]) -> String {
        var lines = [
            "# fish completion for checkrun. Load it with: checkrun completion fish | source",
            "complete -c checkrun -f",
        ]
        for command in commands {
            lines.append("complete -c checkrun -n '__fish_use_subcommand' -a \(command.name) -d '\(fishEscape(command.abstract))'")
        }
        for command in commands {
            let condition = "-n '__fish_seen_subcommand_from \(command.name)'"
            for option in command.options + global {
                var line = "complete -c checkrun \(condition) -l \(option.name) -d '\(fishEscape(option.help))'"
                if option.takesValue {
                    switch option.completion {
                    case .file: line += " -r -F"
                    case .directory: line += " -r -a '(__fish_complete_directories)'"
                    case .values, .commands: line += " -r -a '\(words(option.completion, commands)?.joined(separator: " ") ?? "")'"
                    case .none: line += " -r"
                    }
                }
                lines.append(line)
            }
            if let argument = command.arguments.first {
                switch argument.completion {
                case .file: lines.append("complete -c checkrun \(condition) -F")
                case .directory: lines.append("complete -c checkrun \(condition) -a '(__fish_complete_directories)'")
                case .values, .commands: lines.append("complete -c checkrun \(condition) -a '\(words(argument.completion, commands)?.joined(separator: " ") ?? "")'")
                case .none: break
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

import Foundation
