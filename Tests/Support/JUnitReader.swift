import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The test suites and cases of a JUnit file, read back with Foundation's XML parser.
final class JUnitReader: NSObject, XMLParserDelegate {
    struct TestCase: Equatable {
        var className: String
        var name: String
        var failure: String?
    }

    private(set) var suites: [[String: String]] = []
    private(set) var cases: [TestCase] = []

    /// Nil when the bytes are not well-formed XML.
    static func read(_ bytes: [UInt8]) -> JUnitReader? {
        let reader = JUnitReader()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = reader
        return parser.parse() ? reader : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch elementName {
        case "testsuite": suites.append(attributes)
        case "testcase": cases.append(TestCase(className: attributes["classname"] ?? "?", name: attributes["name"] ?? "?"))
        case "failure": cases[cases.count - 1].failure = attributes["message"]
        default: break
        }
    }
}
