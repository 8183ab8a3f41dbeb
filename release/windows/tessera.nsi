; Tessera's Windows installer, built by scripts/dist.sh with Debian's nsis:
;   makensis -DVERSION=0.2.0 -DSTAGE=DIR -DREGISTRY=registry.nsh -DOUTFILE=setup.exe tessera.nsi
; STAGE holds tessera.exe, tessera-host.exe and tessera.ico; REGISTRY is the
; include release/cmd/assets generates from nativemsg.Target (the same keys
; and manifest paths `tessera install` writes on Windows).
;
; Per user, no administrator rights: the program goes to
; %LOCALAPPDATA%\Programs\Tessera, the host is registered under HKCU for
; Chrome, Edge and Firefox, and the uninstaller removes both. The person's
; data (%LOCALAPPDATA%\Tessera: vault, paired browsers, sites) is never
; touched. Untested on Windows: nothing here runs Windows.
Unicode true
SetCompressor /SOLID lzma
RequestExecutionLevel user

!include "MUI2.nsh"
!include "WordFunc.nsh"
!include "${REGISTRY}"

Name "Tessera"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\Tessera"
InstallDirRegKey HKCU "Software\Tessera" "InstallDir"
VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "Tessera"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "FileDescription" "Tessera installer"
VIAddVersionKey "LegalCopyright" "Tessera contributors"
!if /FileExists "${STAGE}\tessera.ico"
  !define MUI_ICON "${STAGE}\tessera.ico"
  !define MUI_UNICON "${STAGE}\tessera.ico"
!endif

!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Tessera"

Section "Tessera"
  SetOutPath "$INSTDIR"
  File "${STAGE}\tessera.exe"
  File "${STAGE}\tessera-host.exe"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  !insertmacro TesseraRegisterHosts
  CreateShortCut "$SMPROGRAMS\Tessera.lnk" "$INSTDIR\tessera.exe"
  WriteRegStr HKCU "Software\Tessera" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "Tessera"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "Tessera contributors"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\tessera.exe"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" "$\"$INSTDIR\uninstall.exe$\""
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
SectionEnd

Section "Uninstall"
  !insertmacro TesseraUnregisterHosts
  ; The login item Settings may have written ("Start Tessera when I log in").
  DeleteRegValue HKCU "Software\Microsoft\Windows\CurrentVersion\Run" "Tessera"
  Delete "$SMPROGRAMS\Tessera.lnk"
  Delete "$INSTDIR\tessera.exe"
  Delete "$INSTDIR\tessera-host.exe"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINST_KEY}"
  DeleteRegKey HKCU "Software\Tessera"
SectionEnd
