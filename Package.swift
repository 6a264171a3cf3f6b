// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "grove-report",
    products: [
        .library(name: "GroveReport", targets: ["GroveReport"]),
        .executable(name: "grove-report", targets: ["grove-report"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // ISA-L's inflate ABI; the library is opened with dlopen at run time, never linked.
        .systemLibrary(
            name: "CISAL",
            path: "Sources/CISAL"
        ),
        // The C facilities Swift cannot reach by itself, one header each (SSE2's byte compare and
        // pmovmskb, the compiler's prefetch hint, glibc's mallopt): nothing to install or link.
        .systemLibrary(
            name: "CShims",
            path: "Sources/CShims"
        ),
        // The pipeline: input, events, aggregation, statistics, reports, stages, state.
        .target(
            name: "GroveReport",
            dependencies: ["CZlib", "CISAL", "CCrypto", "CSQLite", "CShims"]
        ),
        // The synthetic log generator: writes the events the pipeline reads (and the bad lines it rejects).
        .target(
            name: "GroveGenerator",
            dependencies: ["GroveReport", "CZlib"]
        ),
        // The command line: arguments, help, stdout/stderr, progress and the one exit policy.
        .executableTarget(
            name: "grove-report",
            dependencies: ["GroveReport", "GroveGenerator"]
        ),
        // The tests, by what they run (docs/ARCHITECTURE.md, Targets). Each links in Tests/Support/
        // (its Support folder is a symbolic link to it); the fixtures are in Tests/Fixtures/.
        // The fast set alone: swift test --filter GroveReportUnitTests.
        .testTarget(
            name: "GroveReportUnitTests",
            dependencies: ["GroveReport", "GroveGenerator", "grove-report"],
            path: "Tests/Unit"
        ),
        // The built executable on fixtures and generated logs: exit codes, stderr, outputs, golden help.
        .testTarget(
            name: "GroveReportEndToEndTests",
            dependencies: ["GroveReport", "GroveGenerator", "grove-report"],
            path: "Tests/EndToEnd"
        ),
        // report.html in headless Chromium.
        .testTarget(
            name: "GroveReportBrowserTests",
            dependencies: ["GroveReport", "GroveGenerator", "grove-report"],
            path: "Tests/Browser"
        ),
        // run --state night by night, and the state file's layout, safety and damage.
        .testTarget(
            name: "GroveReportStateTests",
            dependencies: ["GroveReport", "GroveGenerator", "grove-report"],
            path: "Tests/State"
        ),
    ]
)
