"""The app's screens: the main screen owns the selection; dialogs return typed results."""
