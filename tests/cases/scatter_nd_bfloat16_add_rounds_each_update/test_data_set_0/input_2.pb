BupdatesJ
€;€;€;€;@<