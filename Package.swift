// swift-tools-version:6.0
import PackageDescription

// Dependency rule: CloudScrubCore imports Foundation only (no C library, no GL, no
// GLFW). CloudScrubFormats wraps the C decoders above it. CloudScrubRender draws with
// OpenGL (and EGL for headless pictures) above Core, never GLFW; the window (App) sits
// above Render. Core ← Formats ← CLI and Core ← Render ← App ← CLI. See README.md.
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
      dependencies: ["CloudScrubCore", "CloudScrubRender", "CGLFW", "CImGuiBridge"]),
    .target(
      name: "CloudScrubCLI",
      dependencies: ["CloudScrubCore", "CloudScrubFormats", "CloudScrubRender", "CloudScrubApp"]),
    .executableTarget(name: "cloudscrub", dependencies: ["CloudScrubCLI"]),
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
      name: "CloudScrubRenderTests",
      dependencies: ["CloudScrubRender", "CloudScrubCore", "TestSupport"]),
    .testTarget(
      name: "CloudScrubCLITests",
      dependencies: [
        "CloudScrubCLI", "CloudScrubCore", "CloudScrubFormats", "CloudScrubApp", "TestSupport",
        "cloudscrub",
      ],
      exclude: ["Golden"]),
  ]
)
