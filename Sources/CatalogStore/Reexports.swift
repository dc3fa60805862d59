// The channel's types an app passes to and gets from `BundleStore` (`ChannelKey`, and
// `ChannelError` in a refusal) are ChannelFormat's, shared with the publisher; re-exported so
// that an app never imports ChannelFormat (it imports CatalogModel and CatalogStore).
@_exported import ChannelFormat
