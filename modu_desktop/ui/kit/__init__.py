"""The small kit the window and its dialogs share: the signed-in context, banners, the busy
overlay, the flow layout, fitting a dialog to its window, the operations helper, the shortcut
table."""
