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
        .target(
            name: "GroveReport",
            dependencies: ["CZlib", "CISAL", "CCrypto", "CSQLite"],
            path: "Sources",
            sources: ["GroveReport", "GroveGenerator", "grove-report/CommandLine", "grove-report/Diagnostics"]
        ),
        .executableTarget(
            name: "grove-report",
            dependencies: ["GroveReport"],
            sources: ["main.swift"]
        ),
        .testTarget(
            name: "GroveReportTests",
            dependencies: ["GroveReport"]
        ),
    ]
)
