package nativemsg

// ChromeExtensionID is the ID of the Tessera extension in Chromium-family
// browsers. It is fixed by the public key in extension/manifest.json ("key"):
// the first 32 hex digits of the SHA-256 of that key, mapped 0-f to a-p.
// extension/test/manifest.test.ts fails when the two disagree.
const ChromeExtensionID = "mcbhdggcijnkcgnmbmijkpbahglkfaph"

// FirefoxAddonID is the Tessera add-on ID in Firefox
// (browser_specific_settings.gecko.id in extension/manifest.firefox.json).
const FirefoxAddonID = "tessera@tessera-app.dev"
