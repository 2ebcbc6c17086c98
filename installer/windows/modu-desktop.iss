; Inno Setup script for Modu Desktop (Inno Setup 6.5 or later: it ships Korean.isl).
; Saved as UTF-8 with a BOM so the compiler reads the Korean messages correctly.
;
; Build (from the repository root, after the PyInstaller build made dist\modu-desktop\):
;   iscc /DAppVersion=0.1.0 /DAppVersionNumeric=0.1.0.0 installer\windows\modu-desktop.iss
; Output: dist\installer\ModuDesktop-<version>-Setup.exe
;
; Per-user install, no administrator rights: the app goes to %LOCALAPPDATA%\Programs\Modu Desktop.
; The uninstaller keeps the user's drafts and settings (%LOCALAPPDATA%\modu-desktop, the
; platformdirs folder of modu_desktop/core/paths.py) unless the user answers "yes" when asked.

#ifndef AppVersion
  #error Pass the version: iscc /DAppVersion=X.Y.Z installer\windows\modu-desktop.iss
#endif
#ifndef AppVersionNumeric
  #define AppVersionNumeric "0.0.0.0"
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\modu-desktop"
#endif
#ifndef OutputDir
  #define OutputDir "..\..\dist\installer"
#endif
#ifndef AppURL
  #define AppURL "https://github.com/pnuai"
#endif

#define AppName "Modu Desktop"
#define AppExeName "modu-desktop.exe"
#define AppPublisher "Pusan National University (PNU-Modu)"
; Never change the AppId: it identifies the app for upgrades and Programs and Features.
#define AppId "{{715427FC-4A18-4CC7-A004-725900394970}"
; Folder name of the user's data under %LOCALAPPDATA% (core/paths.py APP_DIR_NAME).
#define DataDirName "modu-desktop"

#if !FileExists(AddBackslash(CompilerPath) + "Languages\Korean.isl")
  #error Korean.isl not found in the compiler's Languages folder: install Inno Setup 6.5 or later
#endif

[Setup]
AppId={#AppId}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppPublisher}
AppPublisherURL={#AppURL}
AppSupportURL={#AppURL}
AppUpdatesURL={#AppURL}
AppComments=Desktop editor for the PNU-Modu brochure / PNU-Modu 브로슈어 편집기
VersionInfoVersion={#AppVersionNumeric}
VersionInfoProductVersion={#AppVersionNumeric}
VersionInfoProductTextVersion={#AppVersion}
VersionInfoCompany={#AppPublisher}
VersionInfoDescription={#AppName} Setup
; Per-user, no UAC prompt. {autopf} becomes %LOCALAPPDATA%\Programs.
PrivilegesRequired=lowest
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
DisableDirPage=auto
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#OutputDir}
OutputBaseFilename=ModuDesktop-{#AppVersion}-Setup
SetupIconFile=..\..\resources\icons\modu-desktop.ico
UninstallDisplayIcon={app}\{#AppExeName}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ShowLanguageDialog=auto
LanguageDetectionMethod=uilanguage
; Close a running Modu Desktop (Restart Manager) instead of failing on locked files.
CloseApplications=yes
RestartApplications=no

[Languages]
Name: "korean"; MessagesFile: "compiler:Languages\Korean.isl"
Name: "english"; MessagesFile: "compiler:Default.isl"

[CustomMessages]
korean.PracticeShortcut=%1 연습 모드
english.PracticeShortcut=%1 practice mode
korean.DeleteUserData=내 초안, 설정, 연습 저장소도 삭제할까요?%n%n%1%n%n다시 설치할 예정이거나 아직 저장하지 않은 초안이 있다면 [아니요]를 누르세요. 저장소(GitHub)에 이미 저장된 문서는 어느 쪽이든 그대로 남습니다.
english.DeleteUserData=Also delete your drafts, settings and practice repository?%n%n%1%n%nChoose No if you plan to reinstall or have drafts you have not saved yet. Documents already saved to the repository (GitHub) stay there either way.

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; An upgrade replaces the bundle wholesale: stale files of the previous version must not linger.
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExeName}"; WorkingDir: "{app}"
Name: "{autoprograms}\{cm:PracticeShortcut,{#AppName}}"; Filename: "{app}\{#AppExeName}"; Parameters: "--sandbox"; WorkingDir: "{app}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExeName}"; WorkingDir: "{app}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExeName}"; Description: "{cm:LaunchProgram,{#StringChange(AppName, '&', '&&')}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; The download cache is always safe to remove (it is rebuilt from GitHub).
Type: filesandordirs; Name: "{localappdata}\{#DataDirName}\Cache"

[Code]
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  DataDir: String;
begin
  if CurUninstallStep = usPostUninstall then
  begin
    DataDir := ExpandConstant('{localappdata}\{#DataDirName}');
    { Silent uninstalls (upgrades, IT scripts) never delete user data. }
    if DirExists(DataDir) and not UninstallSilent then
    begin
      if MsgBox(FmtMessage(CustomMessage('DeleteUserData'), [DataDir]),
                mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES then
        DelTree(DataDir, True, True, True);
    end;
  end;
end;
