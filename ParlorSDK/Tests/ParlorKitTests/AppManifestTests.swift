import ParlorKit
import Testing

@Suite("App manifests")
struct AppManifestTests {
    private let manifest = AppManifest(
        id: "org.parlor.links", name: "Links", icon: .asset("icon.png"),
        allowedHosts: ["www.reddit.com", "*.example.org", "API.Parlor.Example"])

    @Test("Listed hosts are allowed, in any letter case", arguments: ["www.reddit.com", "WWW.Reddit.COM", "api.parlor.example"])
    func exactHosts(_ host: String) {
        #expect(manifest.allows(host: host))
    }

    @Test("A wildcard allows every subdomain, at any depth", arguments: ["a.example.org", "deep.er.example.org", "A.EXAMPLE.ORG"])
    func wildcardHosts(_ host: String) {
        #expect(manifest.allows(host: host))
    }

    @Test("Other hosts are refused, look-alikes included", arguments: [
        "reddit.com", "old.reddit.com", "www.reddit.com.evil.net", "evilwww.reddit.com", "example.org", "evilexample.org",
        "example.org.evil.net", "parlor.example", "", ".",
    ])
    func refusedHosts(_ host: String) {
        #expect(!manifest.allows(host: host))
    }

    @Test("* allows any host, but names none: hosts keep their own network only for the hosts a manifest names; a store says so in plain words")
    func anyHost() {
        let open = AppManifest(
            id: "org.parlor.feeds", name: "Feeds", icon: .asset("icon.png"), allowedHosts: [AppManifest.anyHost, "feeds.example.org"])
        #expect(open.allows(host: "anything.example.net") && open.allows(host: "feeds.example.org"))
        #expect(open.names(host: "feeds.example.org"))
        #expect(!open.names(host: "anything.example.net"), "reached only through *")
        #expect(open.permissions.first == "Reach any website on the internet")
        #expect(manifest.names(host: "a.example.org") && !manifest.names(host: "example.net"))
        #expect(manifest.permissions.first == "Reach www.reddit.com, *.example.org, API.Parlor.Example on the internet")
    }

    @Test("A manifest without hosts allows none")
    func noHosts() {
        let closed = AppManifest(id: "org.parlor.closed", name: "Closed", icon: .asset("icon.png"))
        #expect(!closed.allows(host: "www.reddit.com"))
        #expect(closed.allowedHosts.isEmpty)
    }

    @Test("App ids are 1 to 100 ASCII letters, digits, dots, dashes and underscores")
    func appIDs() {
        #expect(AppID("org.parlor.tic-tac_toe2").isWellFormed)
        #expect(AppID(String(repeating: "a", count: 100)).isWellFormed)
        for bad in ["", String(repeating: "a", count: 101), "org parlor", "org/parlor", "örg.parlor", "org.parlor\u{0}"] {
            #expect(!AppID(bad).isWellFormed, "\(bad)")
        }
    }

    @Test("Identifiers parse only UUIDs and are distinct per kind")
    func identifiers() {
        let id = ParticipantID()
        #expect(ParticipantID(id.description) == id)
        #expect(ParticipantID("not-a-uuid") == nil)
        #expect(id.mention == "$" + id.uuid.uuidString)
    }
}
