import CloudScrubCore
import Foundation

/// `cloudscrub export PATH -o OUT.ply`: writes a cloud as PLY.
enum ExportCommand {
  static let help = """
    usage: cloudscrub export PATH -o OUT.ply [--ascii] [--attributes LIST]

    Writes the points of PATH to OUT.ply: binary little-endian by default, x y z as
    float and red green blue as uchar. The file is written under a temporary name and
    renamed into place; an input is never overwritten.

    options:
      -o, --output OUT.ply  where to write (required)
      --ascii               write ASCII PLY instead of binary
      --attributes LIST     also write these fields, comma-separated: 'normal' and any
                            attribute the cloud carries (see 'cloudscrub info'), or
                            'all' or 'none' (the default)
      -h, --help            show this help
    """

  static let spec = ArgumentSpec(
    valueOptions: ["-o": "output", "--output": "output", "--attributes": "attributes"],
    flags: ["--ascii": "ascii", "--help": "help", "-h": "help"], positionals: 1...1)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, spec: spec)
    if parsed.has("help") { return Terminal.out(help) }
    guard let output = parsed.value("output") else {
      throw UsageError("export needs an output file: -o OUT.ply")
    }
    let options = try writeOptions(parsed, source: parsed.positionals[0])
    let input = try InputLoader.load(parsed.positionals[0])
    let progress = Terminal.progress("writing \(output)")
    defer { progress?.finish() }
    try PLYWriter.write(
      input.cloud, to: output, options: options, inputs: [input.path], progress: progress.handler)
  }

  /// The write options the flags describe.
  static func writeOptions(_ parsed: ParsedArguments, source: String) throws -> PLYWriteOptions {
    var options = PLYWriteOptions()
    options.format = parsed.has("ascii") ? .ascii : .binaryLittleEndian
    options.attributes = try attributeSelection(parsed.value("attributes"))
    options.comments = ["exported by CloudScrub from \(URL(fileURLWithPath: source).lastPathComponent)"]
    return options
  }

  static func attributeSelection(_ value: String?) throws -> PLYAttributeSelection {
    guard let value else { return .none }
    switch value {
    case "none": return .none
    case "all": return .all
    default:
      let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }) else {
        throw UsageError("--attributes needs a comma-separated list of names, 'all' or 'none'")
      }
      return .named(names)
    }
  }
}
