/// A mistake in how a command was called; the process exits with status 2.
public struct UsageError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// The options one subcommand accepts.
struct ArgumentSpec {
  /// Options that take a value, by every spelling (`-o`, `--output`) to a canonical name.
  var valueOptions: [String: String] = [:]
  /// Options without a value, by spelling to canonical name.
  var flags: [String: String] = [:]
  /// The fewest and most positional arguments.
  var positionals: ClosedRange<Int> = 0...0
}

/// Parsed arguments of one subcommand.
struct ParsedArguments {
  var positionals: [String] = []
  var values: [String: String] = [:]
  var flags: Set<String> = []

  func value(_ name: String) -> String? { values[name] }
  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// Parses `arguments` against `spec`: `--name value`, `--name=value`, flags, and
  /// positionals in any order; `--` ends the options.
  init(_ arguments: some Collection<String>, spec: ArgumentSpec) throws(UsageError) {
    var iterator = arguments.makeIterator()
    var optionsEnded = false
    while let argument = iterator.next() {
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      if let canonical = spec.flags[name], inlineValue == nil {
        flags.insert(canonical)
      } else if let canonical = spec.valueOptions[name] {
        guard let value = inlineValue ?? iterator.next() else {
          throw UsageError("option \(name) needs a value")
        }
        values[canonical] = value
      } else {
        throw UsageError("unknown option '\(argument)'")
      }
    }
    if flags.contains("help") { return }
    guard spec.positionals.contains(positionals.count) else {
      if positionals.count < spec.positionals.lowerBound {
        throw UsageError("missing argument")
      }
      throw UsageError("unexpected argument '\(positionals[spec.positionals.upperBound])'")
    }
  }
}
