// swift-tools-version:6.0
import PackageDescription

// The layers (docs/architecture.md; scripts/check-layers.sh fails CI when an import
// breaks them): CloudScrubCore imports Foundation only. CloudScrubFormats reads and
// writes files, over the C decoders, above Core. CloudScrubSession is what the window
// and the command line share (opening a path into a document, the window's export,
// background jobs), above Formats. CloudScrubRender draws with OpenGL and EGL above
// Core, never GLFW. The window (App) sits above Session and Render and never imports
// Formats; the command line (CLI) sits above all of them, and the benchmarks (Bench),
// which `cloudscrub bench` runs, above the CLI.
let package = Package(
  name: "CloudScrub",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "cloudscrub", targets: ["cloudscrub"]),
    .library(name: "CloudScrubCore", targets: ["CloudScrubCore"]),
    // The readers as fuzz targets, for the libFuzzer package in Fuzz/ and the
    // regression tests; no fuzzing code is in the normal build.
    .library(name: "CloudScrubFuzzTargets", targets: ["FuzzTargets"]),
  ],
  targets: [
    .target(name: "CloudScrubCore"),
    .systemLibrary(
      name: "CTurboJPEG", path: "Sources/CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
    .systemLibrary(
      name: "COpenEXR", path: "Sources/COpenEXR", providers: [.apt(["libopenexr-dev"])]),
    .systemLibrary(name: "CPNG", path: "Sources/CPNG", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CZip", path: "Sources/CZip", providers: [.apt(["libzip-dev"])]),
    .systemLibrary(
      name: "CFFmpeg", path: "Sources/CFFmpeg",
      providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
    .systemLibrary(name: "CLZF", path: "Sources/CLZF", providers: [.apt(["liblzf-dev"])]),
    .target(
      name: "CloudScrubFormats",
      dependencies: [
        "CloudScrubCore", "CTurboJPEG", "COpenEXR", "CPNG", "CZip", "CFFmpeg", "CLZF",
      ]),
    .target(name: "CloudScrubSession", dependencies: ["CloudScrubCore", "CloudScrubFormats"]),
    .systemLibrary(name: "CGL", path: "Sources/CGL", providers: [.apt(["libgl-dev"])]),
    .systemLibrary(name: "CEGL", path: "Sources/CEGL", providers: [.apt(["libegl-dev"])]),
    .executableTarget(name: "ShaderEmbedder", path: "Sources/ShaderEmbedder"),
    .plugin(name: "EmbedShaders", capability: .buildTool(), dependencies: ["ShaderEmbedder"]),
    .target(
      name: "CloudScrubRender", dependencies: ["CloudScrubCore", "CGL", "CEGL"],
      plugins: ["EmbedShaders"]),
    .systemLibrary(name: "CGLFW", path: "Sources/CGLFW", providers: [.apt(["libglfw3-dev"])]),
    .target(
      name: "CImGuiBridge", path: "Sources/CImGuiBridge",
      cxxSettings: [.unsafeFlags(["-I/usr/include/imgui"])],
      linkerSettings: [
        .linkedLibrary("imgui"), .linkedLibrary("stb"), .linkedLibrary("glfw"),
        .linkedLibrary("stdc++"),
        .linkedLibrary("m"),
        .linkedLibrary("dl"),
      ]),
    .target(
      name: "CloudScrubApp",
      dependencies: [
        "CloudScrubCore", "CloudScrubSession", "CloudScrubRender", "CGL", "CGLFW", "CImGuiBridge",
      ]),
    .target(
      name: "CloudScrubCLI",
      dependencies: [
        "CloudScrubCore", "CloudScrubFormats", "CloudScrubSession", "CloudScrubRender",
        "CloudScrubApp",
      ]),
    .target(
      name: "CloudScrubBench",
      dependencies: [
        "CloudScrubCLI", "CloudScrubCore", "CloudScrubFormats", "CloudScrubSession",
        "CloudScrubRender",
      ]),
    .executableTarget(name: "cloudscrub", dependencies: ["CloudScrubCLI", "CloudScrubBench"]),
    .target(name: "TestSupport", dependencies: ["CloudScrubCore"], path: "Tests/TestSupport"),
    .target(
      name: "FuzzTargets", dependencies: ["CloudScrubCore", "CloudScrubFormats"],
      path: "Tests/FuzzTargets"),
    .testTarget(name: "CloudScrubCoreTests", dependencies: ["CloudScrubCore", "TestSupport"]),
    .testTarget(
      name: "CloudScrubFormatsTests",
      dependencies: ["CloudScrubFormats", "CloudScrubCore", "TestSupport", "FuzzTargets"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "CloudScrubSessionTests",
      dependencies: ["CloudScrubSession", "CloudScrubFormats", "CloudScrubCore", "TestSupport"]),
    .testTarget(
      name: "CloudScrubRenderTests",
      dependencies: ["CloudScrubRender", "CloudScrubCore", "TestSupport"]),
    .testTarget(
      name: "CloudScrubCLITests",
      dependencies: [
        "CloudScrubCLI", "CloudScrubCore", "CloudScrubFormats", "CloudScrubSession",
        "CloudScrubApp", "CloudScrubBench", "TestSupport", "cloudscrub",
      ],
      exclude: ["Golden"]),
  ]
)
