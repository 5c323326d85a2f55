// SPDX-License-Identifier: MIT
// A dialog row of a path field and its Browse… button, the field taking the width: the import and
// record dialogs lay out their file fields alike.
#pragma once

class QLineEdit;
class QPushButton;
class QWidget;

namespace memhist::viewer {

// A new widget holding `edit` and `button` side by side, for QFormLayout::addRow().
QWidget *withBrowseButton(QLineEdit *edit, QPushButton *button);

} // namespace memhist::viewer
