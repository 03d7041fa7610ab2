import Foundation
import PackagePlugin

/// Embeds the GLSL files of the package's `Shaders/` folder into the target that uses
/// this plugin, as `EmbeddedShaders.sources` (file name → source).
@main
struct EmbedShaders: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let folder = context.package.directoryURL.appending(path: "Shaders")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    let shaders = names.filter {
      $0.hasSuffix(".vert") || $0.hasSuffix(".frag") || $0.hasSuffix(".glsl")
    }
    .sorted().map { folder.appending(path: $0) }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedShaders.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(shaders.count) shaders",
        executable: try context.tool(named: "ShaderEmbedder").url,
        arguments: [output.path] + shaders.map(\.path),
        inputFiles: shaders,
        outputFiles: [output])
    ]
  }
}
