// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CaptionAssistant",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Captions", targets: ["Captions"]),
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "Assistant", targets: ["Assistant"]),
        .library(name: "CaptionAssistant", targets: ["CaptionAssistant"]),
        .executable(name: "caption-assistant", targets: ["caption-assistant"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // The one word rule (ICU's word boundaries), which Captions (keyword
        // emphasis) and Assistant (keyword candidates, the prompt's cut, the
        // decoder, the fake model, the local fallback) all cut text into words by.
        .target(name: "Words", linkerSettings: [
            .linkedLibrary("_FoundationICU", .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])),
        ]),
        // Legacy character sets (detection and conversion, `LegacyCharset`) through the same ICU.
        .target(name: "Captions", dependencies: ["CLibXML2", "Words"], linkerSettings: [
            .linkedLibrary("_FoundationICU", .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])),
        ]),
        // The one JSON value with its parser and writer, and the one scan of
        // JSON text (the answer finder, the report reader): reports, HTTP
        // bodies and the model's answer all go through it.
        .target(name: "JSON"),
        // HTTP on Linux: the system's libcurl (Apple platforms use URLSession),
        // declared by us (Sources/CLibCurl/curl_api.h) and opened by its soname,
        // libcurl.so.4, at the first request (shim.h): the runtime package
        // (Debian's libcurl4) is all it needs, no headers, and a run without an
        // HTTP model does not load it.
        .systemLibrary(name: "CLibCurl"),
        // Spelling dictionaries for the title check (`TitleDictionary`): the
        // system's libhunspell, declared by us and opened by its soname,
        // libhunspell-1.7.so.0, when a title is first checked (shim.h);
        // without it (or a dictionary) that one check is not made.
        .systemLibrary(name: "CLibHunspell"),
        .target(name: "Assistant", dependencies: [
            "Words", "JSON",
            .target(name: "CLibCurl", condition: .when(platforms: [.linux])),
            .target(name: "CLibHunspell", condition: .when(platforms: [.linux])),
        ]),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "CBuildInfo"),
        .target(name: "CaptionAssistant", dependencies: [
            "Captions", "Assistant", "JSON", "CBuildInfo",
            .target(name: "CLibCrypto", condition: .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])),
        ]),
        .target(name: "CaptionAssistantCLI", dependencies: ["CaptionAssistant", "Captions", "Assistant", "JSON"]),
        .target(name: "CEarlySignals"),
        .executableTarget(name: "caption-assistant", dependencies: ["CaptionAssistantCLI", "CEarlySignals"]),
        .executableTarget(name: "caption-bench", dependencies: ["Assistant", "Captions", "CaptionAssistant"]),
        // An app that embeds Captions alone (the library's own memory and load cost, measured in BENCHMARKS.md).
        .executableTarget(name: "captions-copy", dependencies: ["Captions"]),
        .testTarget(name: "WordsTests", dependencies: ["Words"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "CaptionsTests", dependencies: ["Captions", "CLibXML2", "TestSupport"], resources: [.copy("Fixtures")]),
        .target(name: "TestSupport", dependencies: ["Assistant"], path: "Tests/TestSupport"),
        .testTarget(name: "AssistantTests", dependencies: ["Assistant", "Captions", "Words", "JSON", "TestSupport"]),
        .testTarget(name: "CaptionAssistantTests", dependencies: ["CaptionAssistant", "CaptionAssistantCLI", "JSON", "TestSupport"],
                    exclude: ["Goldens"]),
        .testTarget(name: "CaptionAssistantCLITests", dependencies: ["CaptionAssistantCLI", "CaptionAssistant", "Assistant", "Captions"]),
        .testTarget(name: "CaptionAssistantEndToEndTests", dependencies: ["caption-assistant", "captions-copy", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
