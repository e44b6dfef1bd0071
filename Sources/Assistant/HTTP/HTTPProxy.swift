import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The proxy a request to the endpoint goes through, decided once from the
/// environment by the rules below and given to the HTTP client explicitly
/// (libcurl's `CURLOPT_PROXY` and `CURLOPT_NOPROXY` are always set, so libcurl
/// never reads the environment on its own).
///
/// The rules (those of curl and most tools, with one exception first):
/// 1. An endpoint on this machine or its link (a loopback or link-local
///    address: `localhost`, `127.0.0.0/8`, `::1`, `169.254.0.0/16`, `fe80::/10`)
///    never goes through a proxy, whatever the environment says: the key and
///    the transcripts meant for a local server are never sent elsewhere.
/// 2. Otherwise `no_proxy` (or `NO_PROXY`) is read: `*` or an entry that is the
///    endpoint's host, a domain it is in (`example.com` and `.example.com` match
///    `api.example.com`), its IP address or a network holding it
///    (`10.0.0.0/8`) means no proxy.
/// 3. Otherwise an `https://` endpoint uses `https_proxy` (or `HTTPS_PROXY`),
///    an `http://` endpoint `http_proxy` (lower case only: `HTTP_PROXY` can be
///    set by a web server's CGI request, as curl also ignores it), and either
///    falls back to `all_proxy` (or `ALL_PROXY`). A proxy without a scheme is
///    `http://`; `https://`, `socks4://`, `socks4a://`, `socks5://` and
///    `socks5h://` are accepted too.
///
/// An `https://` endpoint always goes through an HTTP proxy by a `CONNECT`
/// tunnel: the proxy sees the host and port, and the key and transcripts stay
/// inside TLS. An `http://` endpoint through a proxy is sent in clear to it
/// (the person's choice, which `check` and the run's first line say).
public struct HTTPProxy: Sendable, Equatable {
    /// The proxy's URL as the client is given it (it may hold `user:password@`: never shown).
    let url: String
    /// The variable it came from, e.g. `https_proxy`.
    public let variable: String
    /// Whether the requests travel in clear to the proxy (an `http://` endpoint):
    /// the proxy then sees the key and the transcripts.
    public let seesRequests: Bool

    /// The schemes a proxy may have.
    static let schemes = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// The proxy without any `user:password@` part, e.g. `http://proxy.example:3128`.
    public var display: String { Self.redacted(url) }

    /// What `check` and the run's first line say, e.g.
    /// `http://proxy:3128 (from https_proxy; a CONNECT tunnel: the key and transcripts stay inside TLS)`.
    public var summary: String {
        display + " (from \(variable); "
            + (seesRequests ? "the endpoint is http://, so the proxy sees the key and the transcripts in clear"
                            : "a CONNECT tunnel: the key and the transcripts stay inside TLS") + ")"
    }

    /// The proxy for requests to `endpoint` under `environment`, or nil for none (see the type's rules).
    /// - Throws: `HTTPConfigurationError.invalidProxy` for a proxy that is not a URL of a known scheme.
    public static func choose(for endpoint: URL, environment: [String: String]) throws -> HTTPProxy? {
        guard let scheme = endpoint.scheme?.lowercased(), let host = endpoint.host?.lowercased(), !host.isEmpty else { return nil }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if isLocal(bare) { return nil }
        if let noProxy = value(["no_proxy", "NO_PROXY"], environment)?.text, excludes(noProxy, host: bare) { return nil }
        let names = scheme == "https" ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] : ["http_proxy", "all_proxy", "ALL_PROXY"]
        guard let (variable, text) = value(names, environment) else { return nil }
        var url = text
        if !url.contains("://") { url = "http://" + url }
        guard let components = URLComponents(string: url), let proxyScheme = components.scheme?.lowercased(),
              schemes.contains(proxyScheme), let proxyHost = components.host, !proxyHost.isEmpty else {
            throw HTTPConfigurationError.invalidProxy(variable: variable, value: redacted(text))
        }
        return HTTPProxy(url: url, variable: variable, seesRequests: scheme == "http")
    }

    /// The first of `names` set to a non-blank value, with its name.
    private static func value(_ names: [String], _ environment: [String: String]) -> (name: String, text: String)? {
        for name in names {
            if let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty { return (name, text) }
        }
        return nil
    }

    /// Whether `host` (no brackets) is a loopback or link-local name or address.
    static func isLocal(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "localhost." { return true }
        // inet_aton also reads the short and numeric forms a URL may use for an address (127.1, 2130706433).
        var loose = in_addr()
        if inet_aton(host, &loose) != 0 {
            let v4 = withUnsafeBytes(of: &loose) { Array($0) }
            return v4[0] == 127 || (v4[0] == 169 && v4[1] == 254)
        }
        if let v6 = ipv6(host) {
            if v6 == [UInt8](repeating: 0, count: 15) + [1] { return true }                 // ::1
            if v6[0] == 0xFE && (v6[1] & 0xC0) == 0x80 { return true }                        // fe80::/10
            if v6[0..<10].allSatisfy({ $0 == 0 }) && v6[10] == 0xFF && v6[11] == 0xFF {       // ::ffff:a.b.c.d
                return v6[12] == 127 || (v6[12] == 169 && v6[13] == 254)
            }
        }
        return false
    }

    /// Whether the `no_proxy` list `list` names `host` (see the type's rules).
    static func excludes(_ list: String, host: String) -> Bool {
        let address = ipv4(host) ?? ipv6(host)
        for raw in list.split(whereSeparator: { $0 == "," || $0 == " " }) {
            var entry = raw.trimmingCharacters(in: .whitespaces).lowercased()
            if entry == "*" { return true }
            if entry.hasPrefix("[") , let close = entry.firstIndex(of: "]") { entry = String(entry[entry.index(after: entry.startIndex)..<close]) }
            if let address, let (network, bits) = cidr(entry) {
                if network.count == address.count, matches(address, network, bits: bits) { return true }
                continue
            }
            while entry.hasPrefix(".") { entry.removeFirst() }
            if entry.hasSuffix(".") { entry.removeLast() }
            guard !entry.isEmpty else { continue }
            if host == entry || host.hasSuffix("." + entry) { return true }
        }
        return false
    }

    /// An address with an optional `/bits` (a whole address when none), or nil when `entry` is no address.
    private static func cidr(_ entry: String) -> ([UInt8], Int)? {
        let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let address = ipv4(first) ?? ipv6(first) else { return nil }
        let all = address.count * 8
        guard parts.count == 2 else { return (address, all) }
        guard let bits = Int(parts[1]), (0...all).contains(bits) else { return nil }
        return (address, bits)
    }

    /// Whether the first `bits` bits of `a` and `b` are equal.
    private static func matches(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
        var left = bits
        for (x, y) in zip(a, b) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if x & mask != y & mask { return false }
            left -= 8
        }
        return true
    }

    /// The four bytes of a dotted IPv4 address, or nil.
    static func ipv4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The sixteen bytes of an IPv6 address, or nil.
    static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        let bare = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text  // a zone (fe80::1%eth0)
        guard inet_pton(AF_INET6, bare, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// `text` (a proxy URL or what was given) without a `user:password@` part.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let start = text.range(of: "://").map(\.upperBound) ?? text.startIndex
        guard start <= at else { return text }
        return String(text[..<start]) + String(text[text.index(after: at)...])
    }
}
