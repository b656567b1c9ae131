// The app's identity where the OS needs it.

/** Must equal `appId` in electron-builder.yml: Windows ties notifications and taskbar grouping to it. */
export const APP_USER_MODEL_ID = 'org.countersign.desktop';
