// Package broker serves the app channel: one Session per connection from a
// browser's host, an agent or the command line; hello and the checks of
// the process behind each connection; the framing of large results; the
// app's own requests to a browser and their answers; and the method table,
// whose Handle refuses a method registered twice.
//
// A browser session may act (be sent requests and notifications, have its
// requests and answers read) only once it has proven a key the person
// paired; before that it may say hello and pair, nothing else. What a
// method does is not the broker's business: the app registers handlers
// bound to the services that own them.
package broker
