/// One option or positional argument of the command line, declared once in
/// `OptionTable`: the parser, every `--help` text and the guide's tables are built from
/// these rows.
struct OptionRow: Sendable {
  enum Kind: Sendable {
    /// `--name` alone.
    case flag
    /// `--name VALUE`, or `--name=VALUE`.
    case value
    /// A positional argument; `name` is how help writes it.
    case positional
  }

  /// The canonical name (`depth-range`): the key `ParsedArguments` stores it under,
  /// spelled `--depth-range`. For a positional, its name in the synopsis (`PATH`).
  var name: String
  var kind: Kind
  /// How the value is written (`MIN-MAX`, `WxH`, `low|medium|high`); empty for a flag.
  var syntax: String
  /// What applies when the option is absent, as help says it; nil when nothing does.
  var defaultText: String?
  var help: String
  /// The subcommands that accept it.
  var commands: Set<String>
  var group: OptionGroup
  /// The one-letter spelling (`o` for `-o`), if any.
  var short: Character?
  /// A positional that may be left out.
  var optional = false
  /// The window control that edits the same setting, for the documentation.
  var windowControl: String?

  /// A `--name` flag.
  static func flag(
    _ name: String, short: Character? = nil, _ help: String, commands: Set<String>,
    group: OptionGroup = .general, window: String? = nil
  ) -> OptionRow {
    OptionRow(
      name: name, kind: .flag, syntax: "", defaultText: nil, help: help, commands: commands,
      group: group, short: short, windowControl: window)
  }

  /// A `--name VALUE` option.
  static func value(
    _ name: String, short: Character? = nil, _ syntax: String, default defaultText: String?,
    _ help: String, commands: Set<String>, group: OptionGroup = .general, window: String? = nil
  ) -> OptionRow {
    OptionRow(
      name: name, kind: .value, syntax: syntax, defaultText: defaultText, help: help,
      commands: commands, group: group, short: short, windowControl: window)
  }

  /// A positional argument.
  static func positional(
    _ syntax: String, _ help: String, commands: Set<String>, optional: Bool = false
  ) -> OptionRow {
    OptionRow(
      name: syntax, kind: .positional, syntax: syntax, defaultText: nil, help: help,
      commands: commands, group: .arguments, optional: optional)
  }

  /// Every spelling the parser accepts: `-o` and `--output`.
  var spellings: [String] {
    guard kind != .positional else { return [] }
    return (short.map { ["-\($0)"] } ?? []) + ["--\(name)"]
  }

  /// The row's head as help shows it: `-o, --output OUT.ply`.
  var head: String {
    if kind == .positional { return syntax }
    return spellings.joined(separator: ", ") + (syntax.isEmpty ? "" : " " + syntax)
  }

  /// The help text with its default, as one paragraph; a no-break space keeps
  /// `(default:` on the line of the default's first word.
  var fullHelp: String {
    guard let defaultText else { return help }
    return help + " (default:\u{00A0}\(defaultText))"
  }
}

/// The sections of a subcommand's options in its help.
enum OptionGroup: Int, CaseIterable, Sendable {
  case arguments
  case general
  case recording
  case fusion
  case cleaning

  var title: String {
    switch self {
    case .arguments: return "arguments:"
    case .general: return "options:"
    case .recording: return "recording options (ignored, with a note, for a PLY input):"
    case .fusion: return "fusion options:"
    case .cleaning: return "cleaning options, applied in this order after the recording options:"
    }
  }
}
