import CloudScrubSession

/// Parsed arguments of one subcommand, keyed by the canonical names of `OptionTable`'s
/// rows.
package struct ParsedArguments {
  package var positionals: [String] = []
  package var values: [String: String] = [:]
  package var flags: Set<String> = []

  package func value(_ name: String) -> String? { values[name] }
  package func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// Parses `arguments` against the rows of `command` in `OptionTable`: `--name value`,
  /// `--name=value`, flags, and positionals in any order; `--` ends the options.
  package init(_ arguments: some Collection<String>, command: CommandSpec) throws(UsageError) {
    var valueOptions: [String: String] = [:]
    var flagOptions: [String: String] = [:]
    for row in command.rows where row.kind != .positional {
      for spelling in row.spellings {
        if row.kind == .flag {
          flagOptions[spelling] = row.name
        } else {
          valueOptions[spelling] = row.name
        }
      }
    }
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
      if let canonical = flagOptions[name], inlineValue == nil {
        flags.insert(canonical)
      } else if let canonical = valueOptions[name] {
        guard let value = inlineValue ?? iterator.next() else {
          throw UsageError("option \(name) needs a value")
        }
        values[canonical] = value
      } else {
        throw UsageError("unknown option '\(argument)'")
      }
    }
    if flags.contains("help") { return }
    let accepted = command.positionalCounts
    guard accepted.contains(positionals.count) else {
      if positionals.count < accepted.lowerBound {
        let missing = command.positionals[positionals.count].syntax
        throw UsageError("missing argument \(missing)")
      }
      throw UsageError("unexpected argument '\(positionals[accepted.upperBound])'")
    }
  }
}
