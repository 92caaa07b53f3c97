// `ViewerReport` and the page are in ActionLogViewerPage, which the Replayer uses without the server;
// an app that imports the viewer gets both.
@_exported import ActionLogViewerPage
