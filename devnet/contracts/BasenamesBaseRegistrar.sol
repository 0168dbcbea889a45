// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IENS, IERC721Receiver} from "./Interfaces.sol";

/// Basenames' base registrar: an ERC-721 per name under `baseNode` (base.eth). Besides `register` it has
/// `registerWithRecord` (sets resolver and TTL, emits NameRegisteredWithRecord) and `registerOnly`, which mints the
/// token without a registry record: mainnet preminted names that way, so their first event is Transfer.
contract BasenamesBaseRegistrar {
    uint256 public constant GRACE_PERIOD = 90 days;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event ControllerAdded(address indexed controller);
    event NameRegistered(uint256 indexed id, address indexed owner, uint256 expires);
    event NameRegisteredWithRecord(uint256 indexed id, address indexed owner, uint256 expires, address resolver, uint64 ttl);
    event NameRenewed(uint256 indexed id, uint256 expires);

    IENS public immutable registry;
    bytes32 public immutable baseNode;
    address public immutable owner;
    mapping(address => bool) public controllers;
    mapping(uint256 => uint256) public nameExpires;
    mapping(uint256 => address) private _owners;
    mapping(address => uint256) private _balances;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    constructor(IENS registry_, bytes32 baseNode_) {
        registry = registry_;
        baseNode = baseNode_;
        owner = msg.sender;
    }

    modifier live() {
        require(registry.owner(baseNode) == address(this), "registrar not live");
        _;
    }

    modifier onlyController() {
        require(controllers[msg.sender], "only controller");
        _;
    }

    function addController(address controller) external {
        require(msg.sender == owner, "only owner");
        controllers[controller] = true;
        emit ControllerAdded(controller);
    }

    function isAvailable(uint256 id) public view returns (bool) {
        return nameExpires[id] + GRACE_PERIOD < block.timestamp;
    }

    function register(uint256 id, address to, uint256 duration) external live onlyController returns (uint256 expiry) {
        require(isAvailable(id), "not available");
        expiry = _localRegister(id, to, duration);
        registry.setSubnodeOwner(baseNode, bytes32(id), to);
        emit NameRegistered(id, to, expiry);
    }

    function registerOnly(uint256 id, address to, uint256 duration) external live onlyController returns (uint256 expiry) {
        require(isAvailable(id), "not available");
        expiry = _localRegister(id, to, duration);
        emit NameRegistered(id, to, expiry);
    }

    function registerWithRecord(uint256 id, address to, uint256 duration, address resolver, uint64 ttl)
        external
        live
        onlyController
        returns (uint256 expiry)
    {
        require(isAvailable(id), "not available");
        expiry = _localRegister(id, to, duration);
        registry.setSubnodeRecord(baseNode, bytes32(id), to, resolver, ttl);
        emit NameRegisteredWithRecord(id, to, expiry, resolver, ttl);
    }

    function renew(uint256 id, uint256 duration) external live onlyController returns (uint256) {
        require(nameExpires[id] + GRACE_PERIOD >= block.timestamp, "not registered or in grace");
        nameExpires[id] += duration;
        emit NameRenewed(id, nameExpires[id]);
        return nameExpires[id];
    }

    /// The token holder takes (back) the registry record, e.g. after a token transfer or for a preminted name.
    function reclaim(uint256 id, address to) external live {
        require(_isApprovedOrOwner(msg.sender, id), "not approved");
        registry.setSubnodeOwner(baseNode, bytes32(id), to);
    }

    // ---- ERC-721 ----

    function ownerOf(uint256 id) public view returns (address) {
        require(nameExpires[id] > block.timestamp, "expired");
        address o = _owners[id];
        require(o != address(0), "no token");
        return o;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    function approve(address to, uint256 id) external {
        address o = ownerOf(id);
        require(msg.sender == o || isApprovedForAll[o][msg.sender], "not approved");
        getApproved[id] = to;
        emit Approval(o, to, id);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 id) public {
        require(_isApprovedOrOwner(msg.sender, id), "not approved");
        require(ownerOf(id) == from && to != address(0), "bad transfer");
        delete getApproved[id];
        _balances[from]--;
        _balances[to]++;
        _owners[id] = to;
        emit Transfer(from, to, id);
    }

    function safeTransferFrom(address from, address to, uint256 id) external {
        safeTransferFrom(from, to, id, "");
    }

    function safeTransferFrom(address from, address to, uint256 id, bytes memory data) public {
        transferFrom(from, to, id);
        if (to.code.length > 0) {
            require(IERC721Receiver(to).onERC721Received(msg.sender, from, id, data) == IERC721Receiver.onERC721Received.selector, "rejected");
        }
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x80ac58cd || interfaceId == 0x28ed4f6c; // ERC-165, ERC-721, reclaim
    }

    function _localRegister(uint256 id, address to, uint256 duration) private returns (uint256 expiry) {
        expiry = block.timestamp + duration;
        nameExpires[id] = expiry;
        address previous = _owners[id];
        if (previous != address(0)) {
            // An expired name is burned before it is minted again.
            _balances[previous]--;
            delete getApproved[id];
            emit Transfer(previous, address(0), id);
        }
        _owners[id] = to;
        _balances[to]++;
        emit Transfer(address(0), to, id);
    }

    function _isApprovedOrOwner(address spender, uint256 id) private view returns (bool) {
        address o = ownerOf(id);
        return spender == o || getApproved[id] == spender || isApprovedForAll[o][spender];
    }
}
