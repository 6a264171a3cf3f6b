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
        .target(
            name: "GroveReport",
            dependencies: ["CZlib"]
        ),
        .executableTarget(
            name: "grove-report",
            dependencies: ["GroveReport"]
        ),
        .testTarget(
            name: "GroveReportTests",
            dependencies: ["GroveReport"]
        ),
    ]
)
