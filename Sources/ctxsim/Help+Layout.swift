import Foundation

/// How help is laid out: swift-argument-parser's headings, labels in a 24-column left
/// column, text wrapped within 80 columns.
extension Help {
  /// One command's help, from its prose and its option table.
  static func text(for command: AnySubcommand) -> String {
    let positionals = command.arguments.map { $0.optional ? "[\($0.label)]" : $0.label }
    let usage = (["ctxsim", command.name] + positionals + ["[<options>]"]).joined(separator: " ")
    let options = command.options.map { option in
      let values = option.values.map { "values: \($0.joined(separator: ", "))" }
      let shown = [values, option.defaultValue.map { "default: \($0)" }].compactMap { $0 }
      return row(
        option.label,
        option.abstract + (shown.isEmpty ? "" : " (\(shown.joined(separator: "; ")))"))
    }
    let arguments = command.arguments.map { row($0.label, $0.abstract) }.joined()
    return section("OVERVIEW", command.help.abstract)
      + paragraphs(command.help.discussion)
      + section("USAGE", usage)
      + section("ARGUMENTS", nil, arguments)
      + section("OPTIONS", nil, options.joined() + row("-h, --help", "Show help information."))
      + section("EXAMPLES", nil, examples(command.help.examples))
      + section("EXIT STATUS", nil, exitStatuses(command.help.exitStatuses))
  }

  static let width = 80
  static let labelWidth = 24

  /// `HEADING: text`, or a heading over an indented body, then a blank line.
  static func section(_ heading: String, _ inline: String?, _ body: String = "")
    -> String
  {
    if let inline { return "\(heading): \(inline)\n\n" }
    return "\(heading):\n\(body)\n"
  }

  static func paragraphs(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      wrap(String(line), width: width).joined(separator: "\n")
    }.joined(separator: "\n") + "\n\n"
  }

  /// A label in the left column and its text wrapped beside it; a long label gets the
  /// text on the lines below.
  static func row(_ label: String, _ text: String) -> String {
    let indent = String(repeating: " ", count: 2 + labelWidth + 2)
    var lines = wrap(text, width: width - indent.count).map { indent + $0 }
    let head = "  " + label
    if head.count <= 2 + labelWidth, !lines.isEmpty {
      lines[0] =
        head.padding(toLength: indent.count, withPad: " ", startingAt: 0)
        + lines[0].dropFirst(indent.count)
    } else {
      lines.insert(head, at: 0)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func examples(_ examples: [(comment: String, command: String)]) -> String {
    examples.map { "  \($0.comment):\n    \($0.command)\n" }.joined(separator: "\n")
  }

  static func exitStatuses(_ statuses: [(status: Int32, meaning: String)]) -> String {
    statuses.map { entry in
      let number = String(entry.status).padding(toLength: 5, withPad: " ", startingAt: 0)
      return wrap(entry.meaning, width: width - 7).enumerated().map { i, line in
        (i == 0 ? "  " + number : String(repeating: " ", count: 7)) + line
      }.joined(separator: "\n") + "\n"
    }.joined()
  }

  /// Words filled into lines of at most `width` characters; a longer word gets a line
  /// of its own.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
