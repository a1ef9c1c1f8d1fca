// swift-tools-version:6.1
import PackageDescription

// Data flows one way: catalog text → protocols → walk → store → reports.
// Each layer is its own target and imports only the ones below it: the model at the bottom; the
// store, the walk and the terminal on the model; the reports on the store; the CLI wires the
// walk's saves to the store and the rest together, and the executable only calls it.
let package = Package(
    name: "checkrun",
    products: [
        .executable(name: "checkrun", targets: ["checkrun"]),
        .executable(name: "checkrun-bench", targets: ["checkrun-bench"]),
    ],
    // The team store on PostgreSQL is built only with this trait (`swift build --traits
    // PostgreSQL`), so the default build needs nothing beyond the SQLite headers.
    traits: [.trait(name: "PostgreSQL", description: "A team store on PostgreSQL through libpq (Debian: libpq-dev)")],
    targets: [
        // The system's libsqlite3 (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),

        // The system's libpq (Debian: libpq-dev), only with the PostgreSQL trait.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq"),

        // SHA-256 block compression with the x86 SHA extensions, where the processor has them.
        .target(name: "CSHA256"),

        // Domain model, protocol files, schema validation, lint and catalog import.
        .target(name: "CheckrunModel", dependencies: ["CSHA256"]),

        // Sessions and results in one SQLite file; SQL stays here, next to the code that runs it.
        .target(name: "CheckrunStore", dependencies: [
            "CSQLite", "CheckrunModel", .target(name: "CLibPQ", condition: .when(traits: ["PostgreSQL"])),
        ]),

        // The walk: a state machine over a session's checks that knows nothing of terminals.
        .target(name: "CheckrunWalk", dependencies: ["CheckrunModel"]),

        // Compliance reports and build comparisons, from the store's streamed queries.
        .target(name: "CheckrunReports", dependencies: ["CheckrunModel", "CheckrunStore"]),

        // Raw mode, keys, colour and signals: everything that knows about a terminal.
        .target(name: "CheckrunTerminal", dependencies: ["CheckrunModel"]),

        // Command definitions, argument parsing and wiring; the executable only calls in.
        .target(name: "CheckrunCLI", dependencies: ["CheckrunModel", "CheckrunStore", "CheckrunWalk", "CheckrunReports", "CheckrunTerminal"]),

        .executableTarget(name: "checkrun", dependencies: ["CheckrunCLI"]),

        // Speed and memory, measured on the built binaries: `swift run -c release checkrun-bench`.
        .executableTarget(name: "checkrun-bench", dependencies: ["CheckrunModel", "CheckrunStore", "CheckrunTestSupport"]),

        // Helpers the test targets and the bench share: fixtures, temporary folders, running the
        // built binary, writers started all at once.
        .target(name: "CheckrunTestSupport", dependencies: ["CheckrunModel", "CheckrunWalk", "CheckrunStore"], path: "Tests/Support"),

        .testTarget(
            name: "CheckrunModelTests",
            dependencies: ["CheckrunModel", "CheckrunTestSupport"]
        ),
        .testTarget(
            name: "CheckrunStoreTests",
            dependencies: ["CheckrunStore", "CheckrunModel", "CheckrunTestSupport"]
        ),
        .testTarget(
            name: "CheckrunWalkTests",
            dependencies: ["CheckrunWalk", "CheckrunModel", "CheckrunTestSupport"]
        ),
        .testTarget(
            name: "CheckrunReportsTests",
            dependencies: ["CheckrunReports", "CheckrunStore", "CheckrunModel", "CheckrunTestSupport"]
        ),
        .testTarget(
            name: "CheckrunTerminalTests",
            dependencies: ["CheckrunTerminal"]
        ),
        .testTarget(
            name: "CheckrunCLITests",
            dependencies: ["CheckrunCLI", "CheckrunModel", "CheckrunStore", "CheckrunTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
