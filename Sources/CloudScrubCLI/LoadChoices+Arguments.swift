import CloudScrubCore
import CloudScrubSession

extension LoadChoices {
  /// The choices of `parsed`; `readsMerge` false leaves `--merge` to the caller (`view`
  /// spells it differently).
  init(_ parsed: ParsedArguments, readsMerge: Bool = true) throws {
    self.init()
    selection = try RecordingFlags.selection(parsed)
    unprojection = try RecordingFlags.unprojection(parsed)
    skipUntracked = parsed.has("skip-untracked")
    if readsMerge { mergeMeters = try RecordingFlags.ingestMerge(parsed) }
    cleaning = try CleaningFlags.options(parsed)
    posesPath = parsed.value("poses")
    givenRecordingOptions = OptionTable.recording.map(\.name).filter {
      parsed.value($0) != nil || parsed.has($0)
    }
  }
}
