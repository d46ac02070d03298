import Clocks
import CustomDump
import IssueReporting
