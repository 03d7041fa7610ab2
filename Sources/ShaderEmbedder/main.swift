import Foundation

// Build tool: writes a Swift file that carries every GLSL file in Shaders/ as a string,
// so the binary finds its shaders wherever it is installed or run from. Shaders/ stays
// the single source; this output lives only in the build folder.
//
// usage: ShaderEmbedder OUTPUT.swift SHADER...

let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else {
  FileHandle.standardError.write(Data("usage: ShaderEmbedder OUTPUT.swift SHADER...\n".utf8))
  exit(2)
}

var entries: [(name: String, source: String)] = []
for path in arguments.dropFirst().sorted() {
  let url = URL(fileURLWithPath: path)
  guard let data = FileManager.default.contents(atPath: path),
    let source = String(data: data, encoding: .utf8)
  else {
    FileHandle.standardError.write(Data("ShaderEmbedder: cannot read \(path)\n".utf8))
    exit(1)
  }
  entries.append((url.lastPathComponent, source))
}

// A raw string literal whose delimiter cannot occur in the shader text.
func literal(_ text: String) -> String {
  var hashes = "#"
  while text.contains("\"" + hashes) { hashes += "#" }
  return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

var output = "// Generated at build time from Shaders/ by ShaderEmbedder. Do not edit.\n\n"
output += "enum EmbeddedShaders {\n  static let sources: [String: String] = [\n"
for entry in entries {
  output += "    \"\(entry.name)\": \(literal(entry.source)),\n"
}
output += "  ]\n}\n"

do {
  let url = URL(fileURLWithPath: outputPath)
  let existing = FileManager.default.contents(atPath: outputPath)
  if existing != Data(output.utf8) {
    try Data(output.utf8).write(to: url, options: .atomic)
  }
} catch {
  FileHandle.standardError.write(
    Data("ShaderEmbedder: cannot write \(outputPath): \(error)\n".utf8))
  exit(1)
}
