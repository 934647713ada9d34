/// RSS and Atom documents served by the fixture server and read by the parser tests.
extension Fixtures {
    /// An RSS 2.0 blog: three readable items (one with escaped HTML in its title, one linked only by
    /// its guid), one with a `javascript:` link and one without a title, which a reader cannot use.
    static let rss = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
      <channel>
        <title>Example &amp; Co. Blog</title>
        <link>https://blog.example.org/</link>
        <image><title>Not the feed title</title><url>https://blog.example.org/logo.png</url></image>
        <item>
          <title>Parlor 1.0 &amp;amp; friends</title>
          <link>https://blog.example.org/posts/parlor-1-0?ref=rss&amp;x=1</link>
          <guid isPermaLink="false">post-1</guid>
          <author>editor@example.org (Ada Lovelace)</author>
          <comments>https://blog.example.org/posts/parlor-1-0#comments</comments>
          <media:thumbnail url="https://blog.example.org/img/parlor.jpg"/>
        </item>
        <item>
          <title><![CDATA[Tips: <canvas> &#8212; drawing fast]]></title>
          <guid>https://blog.example.org/posts/canvas</guid>
          <dc:creator>Grace</dc:creator>
        </item>
        <item><title>Bad link</title><link>javascript:alert(1)</link></item>
        <item><link>https://blog.example.org/untitled</link></item>
        <item>
          <title>  Relative
             link  </title>
          <link>/posts/relative</link>
        </item>
      </channel>
    </rss>
    """#

    /// What a reader sees of `rss`'s titles.
    static let rssTitles = ["Parlor 1.0 & friends", "Tips: <canvas> — drawing fast", "Relative link"]

    /// An Atom 1.0 feed: an HTML title, an XHTML title, links by rel, an entry without a link.
    static let atom = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <feed xmlns="http://www.w3.org/2005/Atom">
      <title type="html">Swift &lt;b&gt;Weekly&lt;/b&gt;</title>
      <link href="https://weekly.example.com/"/>
      <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
      <entry>
        <title type="html">&lt;em&gt;Typed throws&lt;/em&gt; in practice &amp;amp; more</title>
        <link rel="edit" href="https://weekly.example.com/edit/1"/>
        <link rel="alternate" type="text/html" href="https://weekly.example.com/issues/1"/>
        <id>tag:weekly.example.com,2025:1</id>
        <author><name>Chris</name><email>c@example.com</email></author>
      </entry>
      <entry>
        <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Concurrency <b>by example</b></div></title>
        <link href="https://weekly.example.com/issues/2"/>
        <id>tag:weekly.example.com,2025:2</id>
      </entry>
      <entry>
        <title>No link at all</title>
        <id>tag:weekly.example.com,2025:3</id>
      </entry>
    </feed>
    """#

    /// What a reader sees of `atom`'s titles.
    static let atomTitles = ["Typed throws in practice & more", "Concurrency by example"]

    /// An RSS feed with no items.
    static let emptyRSS = #"<?xml version="1.0"?><rss version="2.0"><channel><title>Quiet</title></channel></rss>"#

    /// An RSS feed of `count` items titled "Item 1", "Item 2", ….
    static func rss(items count: Int) -> String {
        let items = (1...max(count, 1)).prefix(count).map { "<item><title>Item \($0)</title><link>https://many.example/\($0)</link></item>" }
        return #"<rss version="2.0"><channel><title>Many</title>"# + items.joined() + "</channel></rss>"
    }
}
