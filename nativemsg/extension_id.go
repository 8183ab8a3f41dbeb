package nativemsg

// ChromeExtensionID is the ID of the Tessera extension, fixed by the public
// key in extension/manifest.json.
const ChromeExtensionID = "placeholderplaceholderplaceholde"

// FirefoxAddonID is the Tessera add-on ID in Firefox.
const FirefoxAddonID = "tessera@tessera-app.dev"
