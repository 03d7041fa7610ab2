import Foundation

/// One subcommand's usage lines and prose; its options are the rows of `OptionTable`
/// that name it, and its `--help` text and guide table are built from them.
package struct CommandSpec: Sendable {
  var name: String
  /// The usage lines, each after `cloudscrub ` (`export PATH -o OUT.ply [options]`).
  var synopsis: [String]
  /// What the command does, in paragraphs, before the options.
  var about: String

  /// The rows this command accepts, in the table's order.
  var rows: [OptionRow] { OptionTable.rows.filter { $0.commands.contains(name) } }

  var positionals: [OptionRow] { rows.filter { $0.kind == .positional } }

  /// How many positional arguments the command takes.
  var positionalCounts: ClosedRange<Int> {
    let all = positionals
    return all.filter { !$0.optional }.count...all.count
  }

  /// Help lines are wrapped to this width.
  static let width = 80
  /// Where the help texts of the options start.
  static let helpColumn = 24

  /// The `--help` text.
  package var help: String {
    var lines: [String] = []
    for (index, line) in synopsis.enumerated() {
      lines.append((index == 0 ? "usage: " : "       ") + "cloudscrub " + line)
    }
    lines.append("")
    lines.append(about)
    let rows = rows
    for group in OptionGroup.allCases {
      let members = rows.filter { $0.group == group }
      guard !members.isEmpty else { continue }
      lines.append("")
      lines.append(group.title)
      for row in members { lines += Self.helpLines(row) }
    }
    return lines.joined(separator: "\n")
  }

  /// One row of help: the head, then the text wrapped beside it (or below it when the
  /// head is too wide).
  static func helpLines(_ row: OptionRow) -> [String] {
    let head = "  " + row.head
    let indent = String(repeating: " ", count: helpColumn)
    let text = wrap(row.fullHelp, width: width - helpColumn).map {
      $0.replacingOccurrences(of: "\u{00A0}", with: " ")
    }
    guard let first = text.first else { return [head] }
    var lines: [String]
    if head.count <= helpColumn - 2 {
      lines = [head + String(repeating: " ", count: helpColumn - head.count) + first]
    } else {
      lines = [head, indent + first]
    }
    lines += text.dropFirst().map { indent + $0 }
    return lines
  }

  /// `text` broken into lines of at most `width` characters at spaces (a longer word
  /// gets a line of its own).
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
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// The command's rows as a Markdown table, for its page in docs/guide.
  var markdown: String {
    var lines = [
      "#### `cloudscrub \(name)`", "",
      synopsis.map { "`cloudscrub \($0)`" }.joined(separator: "<br>"), "",
      "| Option | Default | What it does | Window |",
      "|---|---|---|---|",
    ]
    for row in rows {
      let cells = [
        "`" + row.head + "`", row.defaultText ?? "", row.help, row.windowControl ?? "",
      ].map { $0.replacingOccurrences(of: "|", with: "\\|") }
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
  }
}
